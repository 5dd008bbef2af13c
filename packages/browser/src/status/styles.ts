/**
 * The widget's own styles, scoped by class. Colours and timing come from custom properties so a
 * page can theme it; terminal lines dim after a moment, instantly when motion is reduced.
 */
export const statusCss = `.toolctx-status{font:var(--toolctx-status-font,inherit);color:var(--toolctx-status-color,inherit)}
.toolctx-status__line{display:flex;gap:.5em;align-items:center;transition:opacity var(--toolctx-status-fade,.6s) ease var(--toolctx-status-fade-delay,1.5s)}
.toolctx-status__line:not([data-state=running]){opacity:var(--toolctx-status-ended-opacity,.55)}
.toolctx-status__line[data-state=failed]{color:var(--toolctx-status-failed-color,#b3261e)}
.toolctx-status__text{overflow-wrap:anywhere;white-space:pre-wrap}
@media (prefers-reduced-motion:reduce){.toolctx-status__line{transition:none}}`;
