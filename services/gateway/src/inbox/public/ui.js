// Small pieces shared by the panels.
import { h } from 'preact';
import htm from 'htm';
import { sentenceFor } from './messages.js';

const html = htm.bind(h);

/** An API error in words, with a way to try again when there is one. */
export function ErrorLine({ error, retry }) {
  return html`<p class="error" role="alert">
    ${sentenceFor(error)}
    ${retry && html` <button type="button" class="link" onClick=${retry}>Try again</button>`}
  </p>`;
}
