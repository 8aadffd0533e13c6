// What the journeys' Chromium leaves out (support/browser.ts).
/**
 * Chromium features a journey never uses. Chromium draws parts of its own window (the toolbar, the address bar's
 * popup) as web pages in renderers of their own, kept warm even in a headless run that shows no window: they took
 * about a seventh of Chromium's CPU in the journeys (docs/decisions/034-fast-ci.md). A second --disable-features
 * replaces Playwright's own list, so that list comes first, as Playwright passes it.
 */
export const DISABLED_FEATURES = [
  // Playwright's own.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // The window's own web pages.
  'WebUIOmniboxPopup',
  'OmniboxPopupWebUIBaseContent',
  'OmniboxPopupWebUIContent',
  'OmniboxFullPopupWebUIContent',
  'OmniboxAimPopupWebUIContent',
  'FullWebUIOmniboxFrame',
  'WebUIContentsPreloadManager',
  'WebUIToolbar',
  'WebUIReloadButton',
  'InitialWebUI',
];
