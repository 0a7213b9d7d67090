/** The admin's style sheet, served as /admin/assets/app.css (the CSP allows no inline styles). */
export const ADMIN_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2330;background:#f6f7fb}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
button,.button{font:inherit;padding:.45rem .9rem;border:1px solid #9aa3b5;border-radius:6px;background:#fff;color:#1f2330;cursor:pointer;text-decoration:none;display:inline-block}
button:hover,.button:hover{background:#eef1f8}
button:disabled{opacity:.55;cursor:not-allowed}
.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
.primary:hover{background:#1e40af}
input,select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #9aa3b5;border-radius:6px;background:#fff;width:100%;max-width:40rem}
textarea.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}
.field{margin:0 0 1rem}
.field label,.field .label{display:inline-block;font-weight:600;margin-bottom:.25rem}
.field.checkbox{display:flex;gap:.5rem;align-items:center}
.field.checkbox input{width:auto}
.field.checkbox label{margin:0}
.field.inline{display:flex;gap:.5rem;align-items:center;margin:0}
.field.inline label{margin:0}
.field.readonly{padding:.5rem .75rem;border:1px dashed #c4cad6;border-radius:6px}
.field-error,.error{color:#b42318}
[aria-invalid=true]{border-color:#b42318;border-width:2px}
.required{color:#b42318}
.muted{color:#5b6475}
.auth{max-width:24rem;margin:10vh auto;padding:2rem;background:#fff;border-radius:10px;box-shadow:0 1px 4px #0002}
.auth input{max-width:none}
.shell{display:grid;grid-template-columns:15rem 1fr;grid-template-areas:"top top" "nav main";min-height:100vh}
.topbar{grid-area:top;display:flex;gap:1rem;align-items:center;padding:.6rem 1rem;background:#111827;color:#fff}
.topbar a.brand{color:#fff;font-weight:700;text-decoration:none;margin-right:auto}
.topbar .who{font-size:.9rem}
.sidebar{grid-area:nav;padding:1rem;background:#fff;border-right:1px solid #e3e6ee}
.sidebar h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#5b6475;margin:1rem 0 .3rem}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar a{display:block;padding:.3rem .5rem;border-radius:5px;text-decoration:none}
.sidebar a[aria-current=page]{background:#e0e7ff;font-weight:600}
main#main{grid-area:main;padding:1.25rem 1.5rem;min-width:0}
.title-row{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between}
.title-row h1{margin:.3rem 0}
.toolbar{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:1rem 0}
.toolbar form{display:flex;gap:.5rem;align-items:center}
.toolbar form input{width:14rem}
table.entries{width:100%;border-collapse:collapse;background:#fff}
table.entries th,table.entries td{text-align:left;padding:.5rem;border-bottom:1px solid #e3e6ee}
button.sort{border:0;background:none;padding:0;font-weight:600}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600}
.badge-draft{background:#e5e7eb;color:#374151}
.badge-published{background:#d1fae5;color:#065f46}
.badge-modified{background:#fef3c7;color:#92400e}
.pager{display:flex;gap:1rem;align-items:center;margin:1rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
.notice{padding:.5rem .75rem;background:#d1fae5;border-radius:6px}
.skip{position:absolute;left:-999px}
.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:48rem){.shell{grid-template-columns:1fr;grid-template-areas:"top" "nav" "main"}.sidebar{border-right:0;border-bottom:1px solid #e3e6ee}table.entries{display:block;overflow-x:auto}}
`;
