// The part of madge's API the architecture tests use (the package ships no type declarations).
declare module "madge" {
  interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
