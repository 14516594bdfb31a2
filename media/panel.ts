// Webview script for extension panels (browser). Filled in by the panels surface.
export {};
