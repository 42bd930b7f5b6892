export declare const CHROMIUM_ARGS: readonly string[];
export declare const chromiumLaunchOptions: (options?: { executablePath?: string; args?: readonly string[] }) => {
  executablePath: string;
  args: string[];
};
