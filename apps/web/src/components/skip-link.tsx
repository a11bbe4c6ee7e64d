/** The id of every layout's main region: the skip link's target. */
export const MAIN_CONTENT_ID = 'contenu';

/**
 * First stop of the keyboard on every page: jumps over the header and the menu to the page itself.
 * Hidden until focused (styles in app/base.css).
 */
export function SkipLink() {
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
      Aller au contenu
    </a>
  );
}
