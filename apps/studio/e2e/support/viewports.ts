/** The two viewports of the suite: the `desktop` and `phone` projects (playwright.config.ts). */
export const DESKTOP_VIEWPORT = { width: 1440, height: 900 };
export const PHONE_VIEWPORT = { width: 390, height: 844 };
