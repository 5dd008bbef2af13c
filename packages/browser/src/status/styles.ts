/**
 * The widget's own styles, scoped by class. Colours, font and timing come from the custom
 * properties listed in the package README, with defaults for light and dark schemes; a running
 * line's dot pulses while it is quiet (its changing text shows it is alive otherwise, and fifty
 * pulsing dots cost a style pass every frame), and the toggle's arrow turns, unless motion is reduced.
 */
export const statusCss = `.toolctx-status{--_fg:var(--toolctx-status-color,#1f1f1f);--_muted:var(--toolctx-status-muted-color,#474c52);--_bg:var(--toolctx-status-background,#fff);--_accent:var(--toolctx-status-accent-color,#0b57d0);--_failed:var(--toolctx-status-failed-color,#b3261e);--_warn:var(--toolctx-status-warning-color,#8a4b00);color-scheme:light dark;font:var(--toolctx-status-font,inherit);color:var(--_fg);background:var(--_bg);display:flex;flex-direction:column;gap:.35em}
@media (prefers-color-scheme:dark){.toolctx-status{--_fg:var(--toolctx-status-color,#e3e3e3);--_muted:var(--toolctx-status-muted-color,#a8adb3);--_bg:var(--toolctx-status-background,#1f1f1f);--_accent:var(--toolctx-status-accent-color,#a8c7fa);--_failed:var(--toolctx-status-failed-color,#f2b8b5);--_warn:var(--toolctx-status-warning-color,#f0c674)}}
.toolctx-status__summary{font-weight:600}
.toolctx-status__lines,.toolctx-status__finished{display:flex;flex-direction:column;gap:.25em}
.toolctx-status__line{contain:content;display:flex;flex-wrap:wrap;gap:.25em .6em;align-items:center;transition:opacity var(--toolctx-status-fade,.6s) ease}
.toolctx-status__line::before{content:"";inline-size:.5em;block-size:.5em;border-radius:50%;background:var(--_muted)}
.toolctx-status__line[data-state=running]::before{background:var(--_accent)}
.toolctx-status__line[data-state=running]:not([data-reporting])::before{animation:toolctx-pulse 1.6s ease-in-out infinite}
.toolctx-status__line[data-state=done]::before{background:var(--_accent)}
.toolctx-status__line[data-state=failed]::before{background:var(--_failed)}
.toolctx-status__line[data-state=pending]::before{background:var(--_warn)}
.toolctx-status__line:not([data-state=running],[data-state=pending]){opacity:var(--toolctx-status-ended-opacity,.85)}
.toolctx-status__line[data-state=failed]{color:var(--_failed)}
.toolctx-status__text{overflow-wrap:anywhere;white-space:pre-wrap;flex:1 1 12em;min-width:0}
.toolctx-status__time{color:var(--_muted);font-variant-numeric:tabular-nums}
.toolctx-status__note{color:var(--_warn);font-weight:600}
.toolctx-status__bar{flex:1 0 100%;block-size:.5em;border-radius:.25em;overflow:hidden;background:color-mix(in srgb,var(--_muted) 25%,transparent)}
.toolctx-status__fill{block-size:100%;background:var(--_accent);transform-origin:left;transform:scaleX(0)}
.toolctx-status__fill:dir(rtl){transform-origin:right}
.toolctx-status__finished .toolctx-status__bar{display:none}
.toolctx-status__toggle{font:inherit;color:var(--_fg);background:none;border:1px solid var(--_muted);border-radius:.4em;padding:.15em .6em;cursor:pointer}
.toolctx-status__toggle::before{content:"▸ " / "";display:inline-block;transition:transform .2s}
.toolctx-status__toggle[aria-expanded=true]::before{transform:rotate(90deg)}
.toolctx-status__toggle:focus-visible{outline:2px solid var(--_accent);outline-offset:2px}
.toolctx-status__finished{margin-block-start:.35em;padding-inline-start:.75em}
.toolctx-status__announcer{position:absolute;inline-size:1px;block-size:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
[hidden]{display:none!important}
@keyframes toolctx-pulse{50%{opacity:.3}}
@media (prefers-reduced-motion:reduce){.toolctx-status *,.toolctx-status ::before{transition:none!important;animation:none!important}}`;
