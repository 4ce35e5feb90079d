/**
 * The capture domain's face: reading a session's pane (`lisa session capture`), and the pure text
 * logic status, snapshot and monitor share with it: cleaning agent noise, offsets for deltas
 * (`nextOffset` / `--delta-from`), marker search.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export {
  capture,
  type CaptureOutcome,
  type DeltaFrom,
  deltaTime,
  paneActivityMs,
  parseDeltaFrom,
  readCursorFile,
  writeCursorFile,
} from "./capture.ts";
export {
  captureResult,
  cleanCapture,
  DEFAULT_CAPTURE_LINES,
  type DeltaInfo,
  findMarkers,
  type MarkerSummary,
  offsetMode,
  type PaneFacts,
  paneGeometry,
  parseOffset,
} from "./capture_view.ts";
export { markerFields } from "./markers.ts";
export { offsetOf } from "./offset.ts";
