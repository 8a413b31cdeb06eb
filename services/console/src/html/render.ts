import { type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A whole page: preact escapes every text and attribute it renders. */
export const documento = (page: VNode): string => `<!doctype html>${renderToString(page)}`;

/** A fragment that htmx swaps into a page. */
export const fragmento = (node: VNode): string => renderToString(node);
