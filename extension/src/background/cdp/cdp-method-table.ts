// Every DevTools command a CDP client may send inside a tab it holds (the tab's session and its
// frames' and workers' child sessions), domain by domain, reviewed against the protocol in
// node_modules/devtools-protocol (browser_protocol.json + js_protocol.json). A method is allowed,
// allowed once the params named in `checked` pass, or refused with why; a method this table does not
// name (a newer protocol's) is refused as not reviewed until someone adds it here. Reviewed against
// Chromium 156 through chrome.debugger: see cdp-policy.ts for what Chrome itself does and does not
// stop. test/unit/cdp-policy.spec.ts fails when a protocol method is not classified here, and
// docs/CDP-METHODS.md is generated from this table (scripts/cdp-methods-doc.ts).

/** The protocol revision this table was reviewed against (devtools-protocol's version). */
export const REVIEWED_PROTOCOL = '0.0.1608973';

/**
 * How the params of an allowed command are checked. Each entry is a path into the params: "a.b",
 * "a[]" (each element of the array a), "a[name=location].value" (the value of the elements of a whose
 * name is location, in any case).
 */
export interface ParamChecks {
  /** URLs the command loads or fetches in the page: judged as navigations are (sites, privileged schemes, local files). */
  urls?: readonly string[];
  /** Local file paths the command puts into the page: only from folders the person allowed for uploads. */
  files?: readonly string[];
  /** Frames the command acts in: judged as the page the frame shows. */
  frameIds?: readonly string[];
  /** URLs, origins, storage keys or cookie domains the command names: only the sites the tab's frames show. */
  sites?: { params: readonly string[]; why: string };
  /** Params whose presence refuses the command, with why. */
  refusedParams?: Readonly<Record<string, string>>;
  /** Anything else about the command a client should know, in words (the docs show it). */
  note?: string;
}

export interface DomainRules {
  /** Methods that act only inside the held tab whatever their params. */
  allowed?: readonly string[];
  /** Methods allowed once the named params pass their checks. */
  checked?: Readonly<Record<string, ParamChecks>>;
  /** Methods refused, with why (completes "<method> is refused: ..."). */
  refused?: Readonly<Record<string, string>>;
  /** Every method of the domain refused, a later protocol's new ones too, with why. */
  refusedDomain?: string;
}

/** "a b c" -> ["a", "b", "c"]: long lists of plain method names stay readable. */
const w = (names: string): readonly string[] => names.split(/\s+/).filter((n) => n !== '');

const FRAME = { frameIds: ['frameId'] } as const;
const OTHER_SITE_STORAGE = ['securityOrigin', 'storageKey', 'storageBucket.storageKey'] as const;
const COOKIE_SITE = ['url', 'domain', 'partitionKey.topLevelSite'] as const;
const sites = (params: readonly string[], why: string): ParamChecks => ({ sites: { params, why } });

const PROFILE_COOKIES =
  "it reads the cookies of the person's whole profile, beyond the tabs this client holds (Network.getCookies gives the tab's own)";
const CONTEXTS = 'browser contexts belong to the browser, not to the tab this client holds';
const SHARED_STORAGE_READ = 'it reads the shared storage of any site';

export const CDP_METHOD_RULES: Readonly<Record<string, DomainRules>> = {
  Accessibility: {
    allowed: w('disable enable getPartialAXTree getAXNodeAndAncestors queryAXTree'),
    checked: { getFullAXTree: FRAME, getRootAXNode: FRAME, getChildAXNodes: FRAME },
  },
  Animation: {
    allowed: w(
      'disable enable getCurrentTime getPlaybackRate releaseAnimations resolveAnimation seekAnimations setPaused setPlaybackRate setTiming',
    ),
  },
  Audits: { allowed: w('getEncodedResponse disable enable checkFormsIssues') },
  Autofill: {
    // The card or address is the client's own, and Chrome does not save it: the person's saved data is not read.
    allowed: w('setAddresses disable enable'),
    checked: { trigger: FRAME },
  },
  BackgroundService: {
    refusedDomain:
      "it records or deletes the background activity (push, sync, fetch) of every site of the person's profile, and the recording outlives the tab",
  },
  BluetoothEmulation: { refusedDomain: "it replaces the Bluetooth adapter of the person's whole browser, for every tab" },
  Browser: {
    refusedDomain:
      'it acts on the whole browser (windows, permissions of every site, downloads, closing Chrome), not on the tab this client holds',
  },
  CSS: {
    allowed: w(`addRule collectClassNames disable enable forcePseudoState forceStartingStyle getBackgroundColors
      getComputedStyleForNode resolveValues getLonghandProperties getInlineStylesForNode getAnimatedStylesForNode
      getMatchedStylesForNode getEnvironmentVariables getMediaQueries getPlatformFontsForNode getStyleSheetText
      getLayersForNode getLocationForSelector trackComputedStyleUpdatesForNode trackComputedStyleUpdates
      takeComputedStyleUpdates setEffectivePropertyValueForNode setPropertyRulePropertyName setKeyframeKey setMediaText
      setContainerQueryText setSupportsText setNavigationText setScopeText setRuleSelector setStyleSheetText setStyleTexts
      startRuleUsageTracking stopRuleUsageTracking takeCoverageDelta setLocalFontsEnabled`),
    checked: { createStyleSheet: FRAME },
  },
  CacheStorage: {
    // A cacheId is Chrome's "<storage key>|<cache name>": the storage key names the site.
    checked: {
      deleteCache: sites(['cacheId'], 'it deletes the cache storage of a site this tab does not show'),
      deleteEntry: sites(['cacheId'], 'it deletes the cache storage of a site this tab does not show'),
      requestCacheNames: sites(OTHER_SITE_STORAGE, 'it reads the cache storage of a site this tab does not show'),
      requestCachedResponse: sites(['cacheId'], 'it reads the cache storage of a site this tab does not show'),
      requestEntries: sites(['cacheId'], 'it reads the cache storage of a site this tab does not show'),
    },
  },
  Cast: { refusedDomain: "it reaches the person's cast devices" },
  CrashReportContext: { allowed: w('getEntries') },
  DOM: {
    allowed: w(`collectClassNamesFromSubtree copyTo describeNode scrollIntoViewIfNeeded disable discardSearchResults enable
      focus getAttributes getBoxModel getContentQuads getDocument getFlattenedDocument getNodesForSubtreeByStyle
      getNodeForLocation getOuterHTML getRelayoutBoundary getSearchResults hideHighlight highlightNode highlightRect
      markUndoableState moveTo performSearch pushNodeByPathToFrontend pushNodesByBackendIdsToFrontend querySelector
      querySelectorAll getTopLayerElements getElementByRelation redo removeAttribute removeNode requestChildNodes
      requestNode resolveNode setAttributeValue setAttributesAsText setNodeStackTracesEnabled getNodeStackTraces
      getDetachedDomNodes setInspectedNode setNodeName setNodeValue setOuterHTML undo getContainerForNode
      getQueryingDescendantsForContainer getAnchorElement forceShowPopover`),
    checked: {
      setFileInputFiles: { files: ['files[]'] },
      getFrameOwner: FRAME,
    },
    refused: {
      getFileInfo: "it tells where on the person's machine a file they chose lives, which the page itself cannot see",
    },
  },
  DOMDebugger: {
    allowed: w(`getEventListeners removeDOMBreakpoint removeEventListenerBreakpoint removeInstrumentationBreakpoint
      removeXHRBreakpoint setBreakOnCSPViolation setDOMBreakpoint setEventListenerBreakpoint setInstrumentationBreakpoint
      setXHRBreakpoint`),
  },
  DOMSnapshot: { allowed: w('disable enable getSnapshot captureSnapshot') },
  DOMStorage: {
    allowed: w('disable enable'),
    checked: {
      clear: sites(['storageId.securityOrigin', 'storageId.storageKey'], 'it deletes the local storage of a site this tab does not show'),
      getDOMStorageItems: sites(
        ['storageId.securityOrigin', 'storageId.storageKey'],
        'it reads the local storage of a site this tab does not show',
      ),
      removeDOMStorageItem: sites(
        ['storageId.securityOrigin', 'storageId.storageKey'],
        'it deletes the local storage of a site this tab does not show',
      ),
      setDOMStorageItem: sites(
        ['storageId.securityOrigin', 'storageId.storageKey'],
        'it writes the local storage of a site this tab does not show',
      ),
    },
  },
  DeviceAccess: {
    allowed: w('enable disable cancelPrompt'),
    refused: {
      selectPrompt:
        "it gives the site one of the person's devices (Bluetooth, USB), a permission that outlives the tab: the person chooses in the prompt",
    },
  },
  DeviceOrientation: { allowed: w('clearDeviceOrientationOverride setDeviceOrientationOverride') },
  Emulation: {
    allowed: w(`canEmulate clearDeviceMetricsOverride clearGeolocationOverride resetPageScaleFactor setFocusEmulationEnabled
      setAutoDarkModeOverride setCPUThrottlingRate setDefaultBackgroundColorOverride setSafeAreaInsetsOverride
      setDeviceMetricsOverride setDevicePostureOverride clearDevicePostureOverride setDisplayFeaturesOverride
      clearDisplayFeaturesOverride setScrollbarsHidden setDocumentCookieDisabled setEmitTouchEventsForMouse
      setEmulatedMedia setEmulatedVisionDeficiency setEmulatedOSTextScale setGeolocationOverride
      getOverriddenSensorInformation setSensorOverrideEnabled setSensorOverrideReadings setPressureSourceOverrideEnabled
      setPressureStateOverride setPressureDataOverride setIdleOverride clearIdleOverride setNavigatorOverrides
      setPageScaleFactor setScriptExecutionDisabled setTouchEmulationEnabled setVirtualTimePolicy setLocaleOverride
      setTimezoneOverride setVisibleSize setDisabledImageTypes setDataSaverOverride setHardwareConcurrencyOverride
      setUserAgentOverride setAutomationOverride setSmallViewportHeightDifferenceOverride getScreenInfos`),
    refused: {
      addScreen: 'it changes the screens of the whole browser (headless Chrome), not the tab this client holds',
      updateScreen: 'it changes the screens of the whole browser (headless Chrome), not the tab this client holds',
      removeScreen: 'it changes the screens of the whole browser (headless Chrome), not the tab this client holds',
      setPrimaryScreen: 'it changes the screens of the whole browser (headless Chrome), not the tab this client holds',
    },
  },
  EventBreakpoints: { allowed: w('setInstrumentationBreakpoint removeInstrumentationBreakpoint disable') },
  Extensions: { refusedDomain: "it reaches the person's other extensions and their storage" },
  FedCm: {
    allowed: w('enable disable dismissDialog'),
    refused: {
      selectAccount:
        "it signs the person in to the site with their identity provider's account, a grant that outlives the tab: the person chooses in the dialog",
      clickDialogButton:
        "its buttons open the identity provider's window, outside the tabs this client holds: the person chooses in the dialog",
      openUrl: "it opens the identity provider's page in a window outside the tabs this client holds",
      resetCooldown: "it resets the person's sign-in dialog cooldown, a setting of their whole profile",
    },
  },
  Fetch: {
    allowed: w('disable enable failRequest continueWithAuth getResponseBody takeResponseBodyAsStream'),
    checked: {
      continueRequest: { urls: ['url'] },
      fulfillRequest: { urls: ['responseHeaders[name=location].value'], note: 'a redirect (Location header) is judged as a navigation' },
      continueResponse: { urls: ['responseHeaders[name=location].value'], note: 'a redirect (Location header) is judged as a navigation' },
    },
  },
  FileSystem: {
    checked: {
      getDirectory: sites(['bucketFileSystemLocator.storageKey'], 'it reads the files a site this tab does not show keeps in the browser'),
    },
  },
  HeadlessExperimental: { allowed: w('beginFrame disable enable') },
  IO: { allowed: w('close read resolveBlob') },
  IndexedDB: {
    allowed: w('disable enable'),
    checked: {
      clearObjectStore: sites(OTHER_SITE_STORAGE, 'it deletes the databases of a site this tab does not show'),
      deleteDatabase: sites(OTHER_SITE_STORAGE, 'it deletes the databases of a site this tab does not show'),
      deleteObjectStoreEntries: sites(OTHER_SITE_STORAGE, 'it deletes the databases of a site this tab does not show'),
      requestData: sites(OTHER_SITE_STORAGE, 'it reads the databases of a site this tab does not show'),
      getMetadata: sites(OTHER_SITE_STORAGE, 'it reads the databases of a site this tab does not show'),
      requestDatabase: sites(OTHER_SITE_STORAGE, 'it reads the databases of a site this tab does not show'),
      requestDatabaseNames: sites(OTHER_SITE_STORAGE, 'it reads the databases of a site this tab does not show'),
    },
  },
  Input: {
    allowed: w(`dispatchKeyEvent insertText imeSetComposition dispatchMouseEvent dispatchTouchEvent cancelDragging
      emulateTouchFromMouseEvent setIgnoreInputEvents setInterceptDrags synthesizePinchGesture synthesizeScrollGesture
      synthesizeTapGesture`),
    checked: { dispatchDragEvent: { files: ['data.files[]'] } },
  },
  Inspector: { allowed: w('disable enable') },
  LayerTree: {
    allowed: w(
      'compositingReasons disable enable loadSnapshot makeSnapshot profileSnapshot releaseSnapshot replaySnapshot snapshotCommandLog',
    ),
  },
  Log: { allowed: w('clear disable enable startViolationsReport stopViolationsReport') },
  Media: { allowed: w('enable disable') },
  Memory: { refusedDomain: "it reads or changes the memory of the person's whole browser, not of the tab this client holds" },
  Network: {
    allowed: w(`setAcceptedEncodings clearAcceptedEncodingsOverride canClearBrowserCache canClearBrowserCookies
      canEmulateNetworkConditions disable emulateNetworkConditions emulateNetworkConditionsByRule overrideNetworkState
      enable configureDurableMessages getResponseBody getRequestPostData getResponseBodyForInterception
      takeResponseBodyForInterceptionAsStream replayXHR searchInResponseBody setBlockedURLs setBypassServiceWorker
      setCacheDisabled setExtraHTTPHeaders setAttachDebugStack setRequestInterception setUserAgentOverride
      streamResourceContent fetchSchemefulSite`),
    checked: {
      continueInterceptedRequest: { urls: ['url'] },
      deleteCookies: sites(COOKIE_SITE, 'it deletes cookies of a site this tab does not show'),
      getCertificate: sites(['origin'], 'it reads what the browser knows of a site this tab does not show'),
      getCookies: sites(['urls[]'], 'it reads the cookies of a site this tab does not show'),
      setCookie: sites(COOKIE_SITE, 'it writes a cookie of a site this tab does not show'),
      setCookies: sites(
        ['cookies[].url', 'cookies[].domain', 'cookies[].partitionKey.topLevelSite'],
        'it writes cookies of a site this tab does not show',
      ),
      getSecurityIsolationStatus: FRAME,
      loadNetworkResource: { urls: ['url'], frameIds: ['frameId'] },
    },
    refused: {
      clearBrowserCache: "it empties the person's whole browser cache",
      clearBrowserCookies: "it deletes every cookie of the person's profile",
      getAllCookies: PROFILE_COOKIES,
      enableReportingApi: "it reports the Reporting API reports of every site of the person's profile",
      enableDeviceBoundSessions: "it reports the device-bound sign-in sessions of every site of the person's profile",
      setCookieControls: "it changes how the person's browser treats third-party cookies",
    },
  },
  Overlay: {
    allowed: w(`disable enable getHighlightObjectForTest getGridHighlightObjectsForTest getSourceOrderHighlightObjectForTest
      hideHighlight highlightNode highlightQuad highlightRect highlightSourceOrder setInspectMode setShowAdHighlights
      setPausedInDebuggerMessage setShowDebugBorders setShowFPSCounter setShowGridOverlays setShowFlexOverlays
      setShowScrollSnapOverlays setShowContainerQueryOverlays setShowInspectedElementAnchor setShowPaintRects
      setShowLayoutShiftRegions setShowScrollBottleneckRects setShowHitTestBorders setShowWebVitals
      setShowViewportSizeOnResize setShowHinge setShowIsolatedElements setShowWindowControlsOverlay`),
    checked: { highlightFrame: FRAME },
  },
  PWA: { refusedDomain: "it installs, launches or removes web apps on the person's machine, beyond the tab" },
  Page: {
    allowed: w(`addScriptToEvaluateOnLoad addScriptToEvaluateOnNewDocument bringToFront captureScreenshot captureSnapshot
      clearDeviceMetricsOverride clearDeviceOrientationOverride clearGeolocationOverride disable enable getAppManifest
      getInstallabilityErrors getManifestIcons getAppId getFrameTree getLayoutMetrics getNavigationHistory
      resetNavigationHistory getResourceTree handleJavaScriptDialog printToPDF reload removeScriptToEvaluateOnLoad
      removeScriptToEvaluateOnNewDocument screencastFrameAck setAdBlockingEnabled setBypassCSP setDeviceMetricsOverride
      setDeviceOrientationOverride setFontFamilies setFontSizes setGeolocationOverride setLifecycleEventsEnabled
      setTouchEmulationEnabled startScreencast stopLoading close setWebLifecycleState stopScreencast
      produceCompilationCache addCompilationCache clearCompilationCache generateTestReport waitForDebugger
      setInterceptFileChooserDialog setPrerenderingAllowed getAnnotatedPageContent`),
    checked: {
      navigate: { urls: ['url'], frameIds: ['frameId'] },
      navigateToHistoryEntry: { note: "the entry's URL is judged as a navigation" },
      createIsolatedWorld: {
        ...FRAME,
        note: 'grantUniveralAccess (puppeteer sets it) lifts no CORS or site isolation: Chrome enforces both outside the page',
      },
      deleteCookie: sites(['url'], 'it deletes a cookie of a site this tab does not show'),
      getAdScriptAncestry: FRAME,
      getResourceContent: { urls: ['url'], frameIds: ['frameId'] },
      searchInResource: { urls: ['url'], frameIds: ['frameId'] },
      getPermissionsPolicyState: FRAME,
      getOriginTrials: FRAME,
      setDocumentContent: FRAME,
    },
    refused: {
      setDownloadBehavior: 'downloads are set through the browser endpoint (Browser.setDownloadBehavior)',
      crash: "it crashes the page's renderer process, which may also run the person's other tabs of the same site",
      setSPCTransactionMode: 'it would confirm Secure Payment Confirmation payments without the person',
      setRPHRegistrationMode:
        "it lets sites register themselves as the person's handler for links such as mailto:, a setting that outlives the tab",
    },
  },
  Performance: { allowed: w('disable enable setTimeDomain getMetrics') },
  PerformanceTimeline: { allowed: w('enable') },
  Preload: { allowed: w('enable disable') },
  Security: {
    // Through a tab's session Chrome applies these to that tab's loads only (the browser target's apply to all).
    allowed: w('disable enable setIgnoreCertificateErrors handleCertificateError setOverrideCertificateErrors'),
  },
  ServiceWorker: {
    refusedDomain: "it reaches the service workers of every site of the person's profile (lists, starts, stops, unregisters them)",
  },
  SmartCardEmulation: { refusedDomain: "it replaces the person's smart card readers for the whole browser" },
  Storage: {
    allowed: w(`untrackCacheStorageForOrigin untrackCacheStorageForStorageKey untrackIndexedDBForOrigin
      untrackIndexedDBForStorageKey`),
    checked: {
      getStorageKeyForFrame: FRAME,
      getStorageKey: FRAME,
      clearDataForOrigin: sites(['origin'], 'it deletes the storage of a site this tab does not show'),
      clearDataForStorageKey: sites(['storageKey'], 'it deletes the storage of a site this tab does not show'),
      getUsageAndQuota: sites(['origin'], 'it reads the storage of a site this tab does not show'),
      overrideQuotaForOrigin: sites(['origin'], 'it changes the storage of a site this tab does not show'),
      trackCacheStorageForOrigin: sites(['origin'], 'it reports the storage of a site this tab does not show'),
      trackCacheStorageForStorageKey: sites(['storageKey'], 'it reports the storage of a site this tab does not show'),
      trackIndexedDBForOrigin: sites(['origin'], 'it reports the storage of a site this tab does not show'),
      trackIndexedDBForStorageKey: sites(['storageKey'], 'it reports the storage of a site this tab does not show'),
    },
    refused: {
      getCookies: PROFILE_COOKIES,
      setCookies: "it writes cookies into the person's whole profile, for any site (Network.setCookie sets the tab's own)",
      clearCookies: "it deletes every cookie of the person's profile",
      getTrustTokens: "it reads the person's private state tokens of every site",
      clearTrustTokens: "it deletes the person's private state tokens",
      getInterestGroupDetails: "it reads the person's ad interest groups of every site",
      setInterestGroupTracking: "it reports the person's ad interest groups of every site",
      setInterestGroupAuctionTracking: "it reports the person's ad auctions of every site",
      getSharedStorageMetadata: SHARED_STORAGE_READ,
      getSharedStorageEntries: SHARED_STORAGE_READ,
      setSharedStorageEntry: 'it writes the shared storage of any site',
      deleteSharedStorageEntry: 'it deletes the shared storage of any site',
      clearSharedStorageEntries: 'it deletes the shared storage of any site',
      resetSharedStorageBudget: 'it changes the shared storage of any site',
      setSharedStorageTracking: 'it reports the shared storage of every site',
      setStorageBucketTracking: 'it reports the storage buckets of any site',
      deleteStorageBucket: 'it deletes the storage of any site',
      runBounceTrackingMitigations: "it deletes the person's data of the sites it judges trackers",
      getRelatedWebsiteSets: "it reads the person's browser-wide related website sets",
      getAffectedUrlsForThirdPartyCookieMetadata: "it reads the person's browser-wide cookie settings",
      setProtectedAudienceKAnonymity: "it changes the person's browser-wide ad settings",
    },
  },
  SystemInfo: { refusedDomain: "it reads the person's machine (GPU, processes), not the tab this client holds" },
  Target: {
    // The bridge answers the Target methods of the targets this client holds (browser-emulator.ts);
    // what reaches a tab is the tab's own auto-attach tree. Chrome answers attachToTarget of any
    // other target "Not allowed" to an extension, and detachFromTarget knows only this tab's sessions.
    allowed: w('attachToTarget detachFromTarget setAutoAttach'),
    checked: {
      getTargetInfo: {
        refusedParams: {
          targetId: "another target's info names a tab of the person; the bridge answers it for the targets this client holds",
        },
      },
    },
    refused: {
      activateTarget: 'tabs are brought to the front through the browser endpoint, and only the tabs this client holds',
      attachToBrowserTarget: 'the browser target is the whole browser, beyond the tabs this client holds',
      autoAttachRelated: 'it watches any target of the browser, beyond the tabs this client holds',
      closeTarget: 'tabs are closed through the browser endpoint, and only the tabs this client holds',
      createBrowserContext: CONTEXTS,
      createTarget:
        'new tabs are opened through the browser endpoint, which leases them to this client (the tab limit and tab group apply)',
      disposeBrowserContext: CONTEXTS,
      exposeDevToolsProtocol: 'it hands the DevTools protocol to page script, which could then reach beyond the tab',
      getBrowserContexts: CONTEXTS,
      getDevToolsTarget: "DevTools windows belong to the person's browser, not to the tab this client holds",
      getTargets: "it lists every tab of the person's browser; the browser endpoint lists the tabs this client holds",
      openDevTools: "it opens DevTools in the person's browser",
      sendMessageToTarget:
        'the command it carries would pass unchecked; send the command itself with the child session id (flat sessions, as Playwright and puppeteer do)',
      setDiscoverTargets: "it reports every tab of the person's browser; the browser endpoint reports the tabs this client holds",
      setRemoteLocations: 'it makes the browser look for debugging targets on the network',
    },
  },
  Tethering: { refusedDomain: "it opens ports on the person's machine" },
  Tracing: {
    // A tab's trace is limited by Chrome to the tab's processes (and the browser's and GPU's), as
    // DevTools' Performance panel records it; a memory dump is the whole browser's.
    allowed: w('end getCategories getTrackEventDescriptor recordClockSyncMarker start'),
    refused: { requestMemoryDump: "it dumps the memory of the person's whole browser, not of the tab this client holds" },
  },
  WebAudio: { allowed: w('enable disable getRealtimeData') },
  WebAuthn: {
    // Virtual authenticators only: the person's own passkeys and security keys are not reachable.
    allowed: w(`enable disable addVirtualAuthenticator setResponseOverrideBits removeVirtualAuthenticator addCredential
      getCredential getCredentials removeCredential clearCredentials setUserVerified setAutomaticPresenceSimulation
      setCredentialProperties`),
  },
  WebMCP: { allowed: w('enable disable') },
  Console: { allowed: w('clearMessages disable enable') },
  Debugger: {
    allowed: w(`continueToLocation disable enable evaluateOnCallFrame getPossibleBreakpoints getScriptSource
      disassembleWasmModule nextWasmDisassemblyChunk getWasmBytecode getStackTrace pause pauseOnAsyncCall removeBreakpoint
      restartFrame resume searchInContent setAsyncCallStackDepth setBlackboxExecutionContexts setBlackboxPatterns
      setBlackboxedRanges setBreakpoint setInstrumentationBreakpoint setBreakpointByUrl setBreakpointOnFunctionCall
      setBreakpointsActive setPauseOnExceptions setReturnValue setScriptSource setSkipAllPauses setVariableValue stepInto
      stepOut stepOver`),
  },
  HeapProfiler: {
    allowed: w(`addInspectedHeapObject collectGarbage disable enable getHeapObjectId getObjectByHeapObjectId
      getSamplingProfile startSampling startTrackingHeapObjects stopSampling stopTrackingHeapObjects takeHeapSnapshot`),
  },
  Profiler: {
    allowed: w(
      'disable enable getBestEffortCoverage setSamplingInterval start startPreciseCoverage stop stopPreciseCoverage takePreciseCoverage',
    ),
  },
  Runtime: {
    allowed: w(`awaitPromise callFunctionOn compileScript disable discardConsoleEntries enable evaluate getIsolateId
      getHeapUsage getProperties globalLexicalScopeNames queryObjects releaseObject releaseObjectGroup
      runIfWaitingForDebugger runScript setAsyncCallStackDepth setCustomObjectFormatterEnabled
      setMaxCallStackSizeToCapture terminateExecution addBinding removeBinding getExceptionDetails`),
  },
  Schema: { allowed: w('getDomains') },
};
