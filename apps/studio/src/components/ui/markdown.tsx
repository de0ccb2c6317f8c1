import { memo } from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cn } from '@/lib/cn';

const plugins = [remarkGfm];

/** GitHub-flavoured markdown with the theme's `.markdown` styles; links open in a new tab. */
export const Markdown = memo(function Markdown({
  source,
  className,
}: {
  source: string;
  className?: string;
}) {
  return (
    <div dir="auto" className={cn('markdown break-words', className)}>
      <ReactMarkdown
        remarkPlugins={plugins}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
        }}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
});
