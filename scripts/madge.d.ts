// The part of madge's API that scripts/import-cycles.ts uses (the package ships no types).
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    excludeRegExp?: RegExp[];
    tsConfig?: object;
    detectiveOptions?: object;
  }
  interface MadgeResult {
    circular(): string[][];
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
