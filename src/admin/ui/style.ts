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
.panel{background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:1rem 1.25rem;margin:1.25rem 0;max-width:48rem}
.panel h3{margin-top:0}
.hint{margin:0 0 .25rem;font-size:.9rem}
fieldset.permissions{background:#fff;border:1px solid #e3e6ee;border-radius:8px;margin:0 0 1rem;padding:.5rem 1rem}
fieldset.permissions legend{font-weight:700;padding:0 .3rem}
.checks{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem}
.checks .field{margin:.25rem 0}
.tabs ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;margin:0 0 1rem;padding:0;border-bottom:1px solid #e3e6ee}
.tabs a{display:block;padding:.4rem .8rem;text-decoration:none;border-radius:6px 6px 0 0}
.tabs a[aria-current=page]{background:#e0e7ff;font-weight:600}
.row-actions{display:flex;flex-wrap:wrap;gap:.4rem}
td.wrap{word-break:break-all}
.sticky{position:sticky;bottom:0;background:#f6f7fb;padding:.5rem 0}
.key-once{border-color:#f59e0b}
.file-input{position:absolute;opacity:0;width:1px;height:1px}
.file-input:focus-visible+label{outline:3px solid #2563eb;outline-offset:2px}
.segmented{display:flex}
.segmented button[aria-pressed=true]{background:#e0e7ff;font-weight:600}
.media-grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:1rem}
.card{background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:.5rem;display:flex;flex-direction:column;gap:.3rem;min-width:0}
.card img,.file-icon{width:100%;aspect-ratio:4/3;object-fit:cover;border-radius:5px;background:#eef1f8}
.file-icon{display:flex;align-items:center;justify-content:center;font-weight:700;text-transform:uppercase;color:#5b6475}
.card .muted{font-size:.8rem;overflow-wrap:anywhere}
button.link{border:0;background:none;padding:0;color:#1d4ed8;text-decoration:underline;text-align:left;overflow-wrap:anywhere}
img.thumb{width:3rem;height:3rem;object-fit:cover;border-radius:4px}
.details-preview{max-width:100%;max-height:16rem;border-radius:6px}
.facts{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem}
.facts dd{margin:0}
button.small{padding:.15rem .5rem;font-size:.85rem}
.danger{border-color:#b42318;color:#b42318}
.confirm,.notice-box{margin:1rem 0;padding:.75rem;border:2px solid #b42318;border-radius:8px;background:#fff;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.notice-box{border-color:#9aa3b5;display:block}
.composite{padding:.75rem;border:1px solid #e3e6ee;border-radius:8px;background:#fff;max-width:48rem}
.sortable{list-style:none;margin:0 0 .5rem;padding:0}
.sortable-item{border:1px solid #e3e6ee;border-radius:6px;padding:.4rem;margin:.3rem 0;background:#fafbfd}
.sortable-bar{display:flex;gap:.4rem;align-items:center}
.sortable-name{margin-right:auto;font-weight:600}
.handle{cursor:grab;padding:.1rem .45rem}
.component-fields{padding:.5rem 0 0 .75rem;border-left:3px solid #e0e7ff}
.picker .results{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem}
.dropzone{margin:.5rem 0;padding:.75rem;border:2px dashed #9aa3b5;border-radius:8px;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.dropzone.over{border-color:#1d4ed8;background:#eef2ff}
.dropzone input[type=file]{width:auto}
.file{display:inline-flex;gap:.5rem;align-items:center}
.file img{object-fit:cover;border-radius:4px}
.dialog-backdrop{position:fixed;inset:0;background:#0006;display:flex;align-items:center;justify-content:center;z-index:10}
.dialog{background:#fff;border-radius:10px;padding:1rem 1.25rem;width:min(48rem,95vw);max-height:90vh;overflow:auto}
.media-grid{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem}
.media-grid button{width:100%;text-align:left}
.block{display:flex;flex-direction:column;gap:.3rem}
.block select,.block .language{max-width:14rem}
.uid{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.uid .field{flex:1 1 20rem}
.chips{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem;padding:0}
.chips li{background:#e0e7ff;border-radius:999px;padding:.1rem .2rem .1rem .7rem;display:flex;gap:.3rem;align-items:center}
@media (max-width:48rem){.shell{grid-template-columns:1fr;grid-template-areas:"top" "nav" "main"}.sidebar{border-right:0;border-bottom:1px solid #e3e6ee}table.entries{display:block;overflow-x:auto}}
`;
