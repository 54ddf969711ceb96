// Builds elements from plain data; text always goes in as text, never as markup.

/**
 * An element with attributes and children (strings become text nodes; null and false are skipped).
 * @param {string} tag
 * @param {Record<string, string | boolean | number | undefined | ((e: Event) => void)>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/u, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A one-line message box: `kind` is `error`, `warning` or `note`. */
export function message(kind, text) {
  return h('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A status badge (`completed`, `failed`, `running`, `valid`, `invalid`…). */
export function badge(status, text = status) {
  return h('span', { class: `badge ${status}` }, text);
}

/** A link inside the page, handled by the router. */
export function link(href, ...children) {
  return h('a', { href }, ...children);
}
