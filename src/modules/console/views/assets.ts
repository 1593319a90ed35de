/** The console's one stylesheet, served as /console/assets/console.css (no inline style: the CSP forbids it). */
export const CONSOLE_CSS = `
:root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; background: #1d2330; color: #fff; flex-wrap: wrap; }
header a { color: #cfd6e4; text-decoration: none; margin-right: .8rem; }
header a[aria-current] { color: #fff; font-weight: 600; text-decoration: underline; }
header form { margin-left: auto; }
.who { margin-right: .6rem; color: #cfd6e4; }
main { padding: 1rem 1.2rem; max-width: 1400px; }
main.login { max-width: 22rem; margin: 4rem auto; }
main.login form, form.stacked { display: grid; gap: .8rem; }
form.stacked { max-width: 22rem; }
label { display: inline-flex; flex-direction: column; gap: .2rem; font-size: .85rem; margin-right: .6rem; }
input, select, button { font: inherit; padding: .3rem .5rem; }
button { cursor: pointer; }
form.inline { display: inline-flex; gap: .3rem; align-items: end; margin: 0 .3rem .2rem 0; }
form.inline label { margin: 0; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: .85rem; }
th, td { border-bottom: 1px solid #e3e6eb; padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #eef0f4; }
tr.low td, tr.refused td { background: #fff1f0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 1rem; }
.card { background: #fff; padding: .8rem 1rem; border: 1px solid #e3e6eb; }
.card h2 { font-size: .9rem; margin: 0; color: #586174; }
.figure { font-size: 1.8rem; margin: .3rem 0; }
.notice { background: #e7f6ec; border: 1px solid #9fd8b0; padding: .5rem .8rem; }
.error { background: #fff1f0; border: 1px solid #f0a8a0; padding: .5rem .8rem; }
.secret { background: #fff8e1; border: 1px solid #f0d37a; padding: .5rem .8rem; }
.ok { color: #17692f; } .bad { color: #a5211a; font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; background: #fff; padding: .8rem; border: 1px solid #e3e6eb; }
dl.facts dt { color: #586174; }
dl.facts dd { margin: 0; }
dl.side { display: grid; grid-template-columns: max-content 1fr; gap: 0 .6rem; margin: 0; font-size: .85rem; font-weight: normal; color: #1c2230; }
dl.side dt { color: #586174; }
dl.side dd { margin: 0; }
svg.chart { background: #fff; border: 1px solid #e3e6eb; max-width: 100%; height: auto; }
svg.chart .sales { fill: #4a78c2; } svg.chart .cost { fill: #c99a3a; } svg.chart .margin { fill: #3a9a5c; }
svg.chart text { font-size: 11px; fill: #1c2230; }
figcaption .sales { color: #4a78c2; } figcaption .cost { color: #c99a3a; } figcaption .margin { color: #3a9a5c; }
section { margin: 1.2rem 0; }
.search { margin-bottom: 1rem; display: flex; flex-wrap: wrap; align-items: end; }
code { background: #f0f1f4; padding: .1rem .3rem; word-break: break-all; }
.modes { margin: 0 0 .8rem; }
.modes strong { padding: .1rem .5rem; border-radius: .2rem; color: #fff; background: #17692f; }
.modes strong.mode-test { background: #8a5a00; }
nav.paging { display: flex; gap: 1rem; margin: .6rem 0; }
.muted { color: #586174; }
#bulk-result li.ok { font-weight: 600; }
header nav { display: flex; flex-wrap: wrap; gap: .3rem 0; }
form.inline { flex-wrap: wrap; }
dl.facts dd { overflow-wrap: anywhere; }
dl.facts, dl.side { min-width: 0; }
/* A phone (390 px): the menu wraps, wide tables scroll inside their own box, the page itself never sideways. */
@media (max-width: 48rem) {
  header { gap: .4rem; padding: .5rem .8rem; }
  header form { margin-left: 0; }
  main { padding: .8rem; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  dl.facts { grid-template-columns: 1fr; }
  input, select { max-width: 100%; }
  .search > *, form.stacked { max-width: 100%; }
  svg { max-width: 100%; height: auto; }
}
`;
