import type { Metadata, Viewport } from 'next';
import Script from 'next/script';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: 'Trellis',
  description: 'A branching studio for documents written with an AI agent',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="antialiased">
        {/* zod probes `new Function` for its compiled parsers; the CSP forbids eval and Chromium
            reports the probe as a violation even though zod catches it. Run zod jitless here. */}
        <Script id="zod-jitless" strategy="beforeInteractive">
          {'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });'}
        </Script>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
