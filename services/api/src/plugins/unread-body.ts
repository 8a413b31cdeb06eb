import fp from 'fastify-plugin';

/**
 * An answer given before the request's body was read to its end (a multipart upload refused at its second file)
 * must not leave the rest of that body on the connection. Node throws away a body nobody read, but not one a parser
 * had started on (busboy, through a pipe): the rest stays unread and the next request on that keep-alive connection
 * waits behind it until the socket times out. Here the rest is read and dropped, as Node does, so the connection
 * serves the next request; Node's `requestTimeout` bounds how long a client may keep sending.
 */
export const unreadBody = fp(async (app) => {
  app.addHook('onSend', (request, _reply, payload, done) => {
    const raw = request.raw;
    if (!raw.complete) {
      raw.unpipe();
      raw.resume();
    }
    done(null, payload);
  });
});
