/** mdast helpers shared by the document readers. */
import type { InlineCode, Nodes } from 'mdast';

/** The `inlineCode` nodes under an mdast node (the node itself included), in document order. */
export function inlineCodeNodes(node: Nodes): InlineCode[] {
  const out: InlineCode[] = [];
  const walk = (n: Nodes): void => {
    if (n.type === 'inlineCode') out.push(n);
    else if ('children' in n) for (const c of n.children) walk(c as Nodes);
  };
  walk(node);
  return out;
}
