// The panel's only script of its own: htmx sends the CSRF token of the page's meta tag with every request it makes.
document.addEventListener('htmx:configRequest', function (event) {
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) event.detail.headers['X-CSRF-Token'] = meta.getAttribute('content');
});
