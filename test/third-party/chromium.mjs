// The browser driver of the end-to-end tests, over Debian's Chromium (`apt-get install chromium`).
export { chromium } from "playwright-core";
