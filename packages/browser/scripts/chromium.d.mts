/** The Chromium every test and benchmark launches; CHROMIUM_PATH overrides it. */
export declare const chromiumPath: string;
/** Its command-line flags. */
export declare const chromiumArgs: string[];
