import type { Authorship } from '@trellis/domain';
import { useMemo } from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { rehypeAuthorship } from './rehype-authorship';
import type { SpanContext } from './span-title';

const remarkPlugins = [remarkGfm];

/** The document rendered as Markdown with the authorship overlay (the Preview side of the toggle). */
export function AuthorshipMarkdown({
  source,
  authorship,
  context,
}: {
  source: string;
  authorship: Authorship;
  context: SpanContext;
}) {
  const rehypePlugins = useMemo(
    () => [
      [rehypeAuthorship, { spans: authorship.spans, context }] as [
        typeof rehypeAuthorship,
        Parameters<typeof rehypeAuthorship>[0],
      ],
    ],
    [authorship.spans, context],
  );
  return (
    <div dir="auto" className="markdown break-words" data-testid="authorship-preview">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
        }}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
}
