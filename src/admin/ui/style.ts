/**
 * The admin's style sheet, served as /admin/assets/app.css (the CSP allows no inline styles).
 * The shell is a grid whose header row has a fixed height (3.5rem) and whose navigation and
 * header stay in place while the page scrolls; below 48rem the navigation folds behind a
 * Menu button. The edit view is two columns (the form on a 12-column grid; a side panel as
 * tall as the form, whose actions box stays in view: the boxes below it, History, Releases,
 * Preview, scroll under it) down to 64rem, one column below it with Save and Publish in a bar
 * fixed at the bottom. Dialogs take the whole screen on phones. Nothing is wider than a 390 px
 * screen.
 */
export const ADMIN_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2330;background:#f6f7fb}
a{color:#1d4ed8}
h1{font-size:1.75rem;line-height:1.25;margin:.25rem 0}
h2{font-size:1.25rem}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
button,.button{font:inherit;padding:.45rem .9rem;border:1px solid #9aa3b5;border-radius:6px;background:#fff;color:#1f2330;cursor:pointer;text-decoration:none;display:inline-block;line-height:1.4}
button:hover,.button:hover{background:#eef1f8}
button:disabled{opacity:.55;cursor:not-allowed}
.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
.primary:hover{background:#1e40af}
input,select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #9aa3b5;border-radius:6px;background:#fff;color:#1f2330;width:100%;max-width:40rem}
textarea.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}
.field{margin:0 0 1.1rem;min-width:0}
.field>label,.field .label-row{display:block;font-weight:600;margin-bottom:.35rem}
.field .label-row label{font-weight:600}
.field .label{font-weight:600}
.field .description{margin:.3rem 0 0;font-size:.875rem;color:#5b6475}
.field.checkbox{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.field.checkbox input{width:auto;margin:0}
.field.checkbox>label{margin:0}
.field.checkbox .field-error,.field.checkbox .description{flex-basis:100%;margin:0}
.field.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:0}
.field.inline>label{margin:0}
.field.inline select,.field.inline input{width:auto;max-width:100%}
.field.readonly{padding:.5rem .75rem;border:1px dashed #c4cad6;border-radius:6px}
.field-error,.error{color:#b42318}
.field-error{margin:.3rem 0 0;font-size:.9rem}
[aria-invalid=true]{border-color:#b42318;border-width:2px}
.required{color:#b42318}
.muted{color:#5b6475}
.auth{max-width:24rem;margin:10vh auto;padding:2rem;background:#fff;border-radius:10px;box-shadow:0 1px 4px #0002}
.auth input{max-width:none}

.shell{display:grid;grid-template-columns:15rem minmax(0,1fr);grid-template-rows:3.5rem minmax(0,1fr);grid-template-areas:"top top" "nav main";min-height:100vh}
.topbar{grid-area:top;position:sticky;top:0;z-index:20;height:3.5rem;display:flex;gap:.75rem;align-items:center;padding:0 1rem;background:#111827;color:#fff;min-width:0}
.topbar a.brand{color:#fff;font-weight:700;text-decoration:none;white-space:nowrap;margin-right:auto}
.topbar .who{font-size:.9rem;color:#e5e7eb;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.topbar a.who{color:#e5e7eb;text-decoration:underline}
.topbar button{padding:.3rem .75rem;white-space:nowrap}
.menu-toggle{display:none}
.sidebar{grid-area:nav;position:sticky;top:3.5rem;align-self:start;height:calc(100vh - 3.5rem);overflow-y:auto;padding:.5rem 1rem 1rem;background:#fff;border-right:1px solid #e3e6ee}
.sidebar h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#5b6475;margin:1rem 0 .3rem}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar a{display:block;padding:.3rem .5rem;border-radius:5px;text-decoration:none}
.sidebar a[aria-current=page]{background:#e0e7ff;font-weight:600}
main#main{grid-area:main;padding:1.25rem 1.5rem 2.5rem;min-width:0}
.title-row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.title-row h1{margin:.3rem 0}
.title-main{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;min-width:0}
.title-main h1{overflow-wrap:anywhere}
.back{margin:0 0 .25rem}
.toolbar{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0}
.toolbar form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.toolbar form input{width:14rem;max-width:100%}
.table-wrap{max-width:100%;overflow-x:auto}
table.entries{width:100%;border-collapse:collapse;background:#fff}
table.entries th,table.entries td{text-align:left;padding:.5rem;border-bottom:1px solid #e3e6ee;vertical-align:middle}
table.entries td{overflow-wrap:break-word}
button.sort{border:0;background:none;padding:0;font-weight:600}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:999px;font-size:.8rem;font-weight:600;white-space:nowrap}
.badge-draft{background:#e5e7eb;color:#374151}
.badge-published{background:#d1fae5;color:#065f46}
.badge-modified{background:#fef3c7;color:#92400e}
.pager{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
.notice{padding:.5rem .75rem;background:#d1fae5;border-radius:6px}
.skip{position:absolute;left:-999px}
.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:30}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.panel{background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:1rem 1.25rem;margin:1.25rem 0;max-width:48rem}
.panel h3{margin-top:0}
.hint{margin:0 0 .35rem;font-size:.9rem}
fieldset.permissions{background:#fff;border:1px solid #e3e6ee;border-radius:8px;margin:0 0 1rem;padding:.5rem 1rem;min-width:0}
fieldset.permissions legend{font-weight:700;padding:0 .3rem}
.checks{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem}
.checks .field{margin:.25rem 0}
.tabs ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;margin:0 0 1rem;padding:0;border-bottom:1px solid #e3e6ee}
.tabs a{display:block;padding:.4rem .8rem;text-decoration:none;border-radius:6px 6px 0 0}
.tabs a[aria-current=page]{background:#e0e7ff;font-weight:600}
.row-actions:not(td){display:flex;flex-wrap:wrap;gap:.4rem}
td.row-actions>*{margin:.15rem .4rem .15rem 0}
td.wrap{word-break:break-all}
.sticky{position:sticky;bottom:0;background:#f6f7fb;padding:.5rem 0}
.key-once{border-color:#f59e0b}
.file-input{position:absolute;opacity:0;width:1px;height:1px}
.file-input:focus-visible+label{outline:3px solid #2563eb;outline-offset:2px}
.segmented{display:flex}
.segmented button[aria-pressed=true]{background:#e0e7ff;font-weight:600}
.media-grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:1rem}
.card{background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:.5rem;display:flex;flex-direction:column;gap:.3rem;min-width:0}
.card img,.file-icon{width:100%;aspect-ratio:4/3;object-fit:cover;border-radius:5px;background:#eef1f8}
.file-icon{display:flex;align-items:center;justify-content:center;font-weight:700;text-transform:uppercase;color:#5b6475}
.card .muted{font-size:.8rem;overflow-wrap:anywhere}
button.link{border:0;background:none;padding:0;color:#1d4ed8;text-decoration:underline;text-align:left;overflow-wrap:anywhere}
img.thumb{width:3rem;height:3rem;object-fit:cover;border-radius:4px}
.details-preview{max-width:100%;max-height:16rem;border-radius:6px}
.facts{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem;margin:0}
.facts dt{color:#5b6475}
.facts dd{margin:0;overflow-wrap:anywhere}
button.small{padding:.15rem .5rem;font-size:.85rem}
.danger{border-color:#b42318;color:#b42318}
.confirm,.notice-box{margin:1rem 0;padding:.75rem;border:2px solid #b42318;border-radius:8px;background:#fff;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.notice-box{border-color:#9aa3b5;display:block}
.composite{padding:.75rem;border:1px solid #e3e6ee;border-radius:8px;background:#fff;max-width:48rem}
.sortable{list-style:none;margin:0 0 .5rem;padding:0}
.sortable-item{border:1px solid #e3e6ee;border-radius:6px;padding:.4rem;margin:.3rem 0;background:#fafbfd;min-width:0}
.sortable-bar{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.sortable-name{margin-right:auto;font-weight:600;overflow-wrap:anywhere;min-width:0}
.handle{cursor:grab;padding:.1rem .45rem}
.component-fields{padding:.5rem 0 0 .75rem;border-left:3px solid #e0e7ff}
.combo{position:relative;margin-top:.25rem}
.listbox{position:absolute;left:0;right:0;top:100%;z-index:12;list-style:none;margin:.2rem 0 0;padding:.25rem;max-height:16rem;overflow-y:auto;background:#fff;border:1px solid #9aa3b5;border-radius:6px;box-shadow:0 4px 12px #0002}
.listbox[hidden]{display:none}
.listbox li{padding:.35rem .5rem;border-radius:4px;cursor:pointer;overflow-wrap:anywhere}
.listbox li:hover{background:#eef1f8}
.listbox li.active{background:#1d4ed8;color:#fff}
.combo-note{margin:.3rem 0 0;font-size:.9rem}
.picker .results{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem}
.dropzone{margin:.5rem 0;padding:.75rem;border:2px dashed #9aa3b5;border-radius:8px;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.dropzone.over{border-color:#1d4ed8;background:#eef2ff}
.dropzone input[type=file]{width:auto;max-width:100%}
.file{display:inline-flex;gap:.5rem;align-items:center;min-width:0;overflow-wrap:anywhere}
.file img{object-fit:cover;border-radius:4px}
.dialog-backdrop{position:fixed;inset:0;background:#0006;display:flex;align-items:center;justify-content:center;z-index:40}
.dialog{background:#fff;border-radius:10px;padding:1rem 1.25rem;width:min(48rem,95vw);max-height:90vh;overflow:auto}
.media-grid button{width:100%;text-align:left}
.rich{border:1px solid #9aa3b5;border-radius:6px;background:#fff;margin-top:.25rem}
.rich.invalid{border-color:#b42318;border-width:2px}
.rich:focus-within{border-color:#2563eb}
.rich-toolbar{display:flex;flex-wrap:wrap;gap:.25rem;align-items:center;padding:.35rem;border-bottom:1px solid #e3e6ee;background:#fafbfd;border-radius:6px 6px 0 0;position:sticky;top:3.5rem;z-index:5}
.rich-toolbar .tool{min-width:2.1rem;min-height:2.1rem;display:inline-flex;align-items:center;justify-content:center;padding:.2rem .45rem;border-color:transparent;background:transparent;font-size:.95rem}
.rich-toolbar .tool:hover{background:#eef1f8}
.rich-toolbar .tool[aria-pressed=true]{background:#e0e7ff;border-color:#a5b4fc}
.rich-toolbar .tool-style{width:auto;padding:.2rem .3rem;font-size:.9rem}
.rich-toolbar .tool-sep{width:1px;align-self:stretch;background:#e3e6ee;margin:0 .15rem}
.rich-link{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;padding:.4rem .5rem;border-bottom:1px solid #e3e6ee}
.rich-link input{flex:1 1 12rem;width:auto}
.rich-editor{min-height:9rem;padding:.6rem .8rem;outline:none;position:relative;word-wrap:break-word;white-space:pre-wrap;white-space:break-spaces;font-variant-ligatures:none;line-height:1.6}
.rich-editor:focus-visible{outline:none}
.rich-editor>*:first-child{margin-top:0}
.rich-editor p{margin:.4rem 0}
.rich-editor h1,.rich-editor h2,.rich-editor h3,.rich-editor h4,.rich-editor h5,.rich-editor h6{margin:.8rem 0 .4rem;line-height:1.3}
.rich-editor h1{font-size:1.7rem}.rich-editor h2{font-size:1.45rem}.rich-editor h3{font-size:1.25rem}.rich-editor h4{font-size:1.1rem}.rich-editor h5{font-size:1rem}.rich-editor h6{font-size:.9rem}
.rich-editor blockquote{margin:.5rem 0;padding:.2rem .9rem;border-left:4px solid #c7d2fe;color:#374151}
.rich-editor pre{background:#111827;color:#f9fafb;padding:.6rem .8rem;border-radius:6px;white-space:pre-wrap;font-size:.9rem}
.rich-editor code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;background:#eef1f8;padding:0 .2rem;border-radius:3px}
.rich-editor pre code{background:none;padding:0;color:inherit}
.rich-editor ul,.rich-editor ol{margin:.4rem 0;padding-left:1.6rem}
.rich-editor li{position:relative}
.rich-editor li>p{margin:.15rem 0}
.rich-editor a{color:#1d4ed8;text-decoration:underline}
.rich-editor figure{margin:.5rem 0}
.rich-editor img{max-width:100%;max-height:20rem;border-radius:4px}
.rich-unknown{padding:.5rem;border:1px dashed #9aa3b5;border-radius:6px;color:#5b6475;font-size:.9rem}
.ProseMirror-selectednode{outline:2px solid #2563eb}
.ProseMirror-hideselection *::selection{background:transparent}
.ProseMirror-hideselection{caret-color:transparent}
.ProseMirror [draggable][contenteditable=false]{user-select:text}
img.ProseMirror-separator{display:inline!important;border:none!important;margin:0!important}
.uid-row{display:flex;gap:.5rem;align-items:center}
.uid-row input{flex:1 1 auto;min-width:0}
.uid-row button{flex:none}
.list-toolbar{margin:1rem 0 .5rem}
.list-toolbar .search{flex:1 1 16rem;flex-wrap:nowrap}
.list-toolbar .search input{flex:1 1 auto;width:auto;min-width:0;max-width:28rem}
.menu{position:relative}
.menu>summary{list-style:none;cursor:pointer}
.menu>summary::-webkit-details-marker{display:none}
.menu-body{position:absolute;right:0;z-index:12;margin:.3rem 0 0;min-width:14rem;max-height:60vh;overflow:auto;background:#fff;border:1px solid #9aa3b5;border-radius:8px;padding:.6rem .8rem;box-shadow:0 4px 12px #0002}
.menu-body .field{margin:.2rem 0}
.configure .box{margin:0 0 1rem;max-width:60rem}
.settings-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:0 1rem}
.settings-grid select{max-width:none}
.configure-field{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:0 1rem;padding:.5rem .25rem 0}
.configure-field .field{margin:0 0 .6rem}
.configure-field input,.configure-field select{max-width:none}
.home-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem;align-items:start;margin-top:1rem}
.recent{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.55rem}
.recent li{display:flex;flex-wrap:wrap;gap:.15rem .6rem;align-items:center;min-width:0}
.recent li>a:first-child{font-weight:600;overflow-wrap:anywhere}
.recent-meta{font-size:.85rem;flex-basis:100%}
.recent li .button.small{margin-left:auto;padding:.1rem .6rem;font-size:.85rem}
.empty{margin:1rem 0;padding:2rem 1rem;text-align:center;background:#fff;border:1px dashed #c4cad6;border-radius:8px}
.empty-title{font-size:1.15rem;font-weight:600;margin:0 0 .3rem}
th.check,td.check{width:2.5rem}
.filters form{margin:.5rem 0}
.filters form select,.filters form input{width:auto;flex:1 1 9rem;max-width:16rem;min-width:0}
.chips{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem;padding:0}
.chips li{background:#e0e7ff;border-radius:999px;padding:.1rem .2rem .1rem .7rem;display:flex;gap:.3rem;align-items:center}

.edit-layout{display:grid;grid-template-columns:minmax(0,1fr) 19rem;gap:1.5rem;align-items:start;margin-top:1rem}
.form-grid{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:0 1.25rem;background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:1.25rem 1.25rem .25rem}
.form-grid>*{grid-column:span 12;min-width:0}
.form-grid>.w-3{grid-column:span 3}.form-grid>.w-4{grid-column:span 4}.form-grid>.w-6{grid-column:span 6}.form-grid>.w-8{grid-column:span 8}
.form-grid input,.form-grid select,.form-grid textarea{max-width:none}
.form-grid .composite{max-width:none}
.side{align-self:stretch;display:flex;flex-direction:column;gap:1rem;min-width:0}
.box{background:#fff;border:1px solid #e3e6ee;border-radius:8px;padding:1rem}
.box h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#5b6475;margin:0 0 .6rem}
.edit-actions{display:flex;flex-direction:column;gap:.5rem}
.edit-actions .main-actions,.edit-actions .more-actions{display:flex;flex-direction:column;gap:.5rem}
.edit-actions button{width:100%}
.edit-actions .dirty{margin:0;font-size:.875rem}
.locale-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.35rem}
.locale-list li{display:flex;gap:.5rem;align-items:center;justify-content:space-between}
.locale-list a[aria-current=page]{font-weight:700}
.button.wide,button.wide{display:block;width:100%;text-align:center}
.box-note{margin:0 0 .6rem;font-size:.875rem}
.box-foot{margin:.75rem 0 0}
.dialog-head{display:flex;align-items:center;justify-content:space-between;gap:1rem;margin-bottom:.25rem}
.dialog-head h2{margin:0;font-size:1.35rem;text-transform:none;letter-spacing:0;color:#1f2330}
.confirm>p{margin:0;flex-basis:100%}
.history-dialog{width:min(72rem,96vw);height:90vh}
.history-layout{display:grid;grid-template-columns:20rem minmax(0,1fr);gap:1.25rem;align-items:start}
.versions{position:sticky;top:0;max-height:calc(90vh - 7rem);overflow-y:auto;padding:2px}
.versions ol{list-style:none;margin:0 0 .5rem;padding:0;display:flex;flex-direction:column;gap:.4rem}
button.version{width:100%;text-align:left;display:flex;flex-wrap:wrap;gap:.2rem .5rem;align-items:center}
button.version[aria-current=true]{border-color:#1d4ed8;background:#eef2ff;box-shadow:inset 4px 0 0 #1d4ed8}
.version-when{font-weight:600}
.version-who,.version-changed{flex-basis:100%;font-size:.85rem;color:#4b5563}
.version-details{min-width:0}
.version-details h3{margin:.2rem 0;font-size:1.15rem}
.version-details h4{font-size:1rem;margin:1.25rem 0 .5rem}
.notice-inline{padding:.45rem .7rem;background:#eef2ff;border-radius:6px}
.diff{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.75rem}
.diff-name{font-weight:600;margin:0 0 .3rem}
.diff-values{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.5rem}
.diff-old,.diff-new{border-radius:6px;padding:.4rem .6rem;min-width:0}
.diff-old{background:#fff7ed;border:1px solid #fdba74}
.diff-new{background:#f0fdf4;border:1px solid #86efac}
.diff-tag{display:block;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#4b5563}
.value{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.version-content{display:grid;grid-template-columns:minmax(7rem,max-content) minmax(0,1fr);gap:.35rem 1rem;margin:0}
.version-content dt{font-weight:600}
.version-content dd{margin:0}
.badge-pending{background:#dbeafe;color:#1e40af}
.badge-done{background:#d1fae5;color:#065f46}
.badge-failed{background:#fee2e2;color:#991b1b}
.badge-action-publish{background:#d1fae5;color:#065f46}
.badge-action-unpublish{background:#e5e7eb;color:#374151}
.release-form{max-width:60rem;margin:1rem 0 1.5rem}
.release-form-fields{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:0 1rem}
.release-form-fields input,.release-form-fields select,.reschedule input,.reschedule select,.add-release select{max-width:none}
.schedule-fields{display:contents}
.release-layout{display:grid;grid-template-columns:minmax(0,1fr) 19rem;gap:1.5rem;align-items:start;margin-top:1rem}
.release-side,.release-actions{display:flex;flex-direction:column;gap:.75rem}
.release-side .confirm{margin:0}
.release-entry-list,.release-links{list-style:none;margin:0;padding:0}
.release-entry-list li{display:flex;flex-wrap:wrap;gap:.4rem .75rem;align-items:center;padding:.6rem 0;border-bottom:1px solid #e3e6ee}
.release-entry-list li:last-child{border-bottom:0}
.release-entry-main{display:flex;flex-direction:column;flex:1 1 12rem;min-width:0}
.release-entry-main a{font-weight:600;overflow-wrap:anywhere}
.release-links{margin-bottom:.6rem;display:flex;flex-direction:column;gap:.45rem}
.release-links li{display:flex;flex-wrap:wrap;gap:.15rem .5rem;align-items:center}
.release-when{flex-basis:100%;font-size:.85rem}
fieldset.choice{border:0;padding:0;margin:0 0 .6rem;min-width:0}
fieldset.choice legend{font-weight:600;padding:0;margin-bottom:.25rem}
fieldset.choice label{display:inline-flex;gap:.35rem;align-items:center;margin-right:1rem}
fieldset.choice input{width:auto;margin:0}
.add-release{margin-top:.75rem}
.audit-filters{align-items:flex-end}
.audit-filters .field{margin:0;flex:1 1 12rem;max-width:18rem}
.audit-filters input,.audit-filters select{max-width:none}
.audit-table td{vertical-align:top;font-size:.9rem}
.audit-details{overflow-wrap:anywhere;max-width:22rem}
.auth pre{white-space:pre-wrap;overflow-wrap:anywhere}
.summary{margin:1rem 0;padding:.75rem 1rem;border:2px solid #b42318;border-radius:8px;background:#fff}
.summary h2{font-size:1rem;margin:0 0 .35rem;color:#b42318}
.summary ul{margin:0;padding-left:1.25rem}

@media (max-width:64rem){
.edit-layout{grid-template-columns:minmax(0,1fr)}
.side{position:static}
.form-grid>.w-3,.form-grid>.w-4{grid-column:span 6}
.form-grid>.w-6,.form-grid>.w-8{grid-column:span 12}
.edit-actions{position:fixed;left:0;right:0;bottom:0;z-index:15;background:#fff;border-top:1px solid #c4cad6;box-shadow:0 -2px 8px #0001;padding:.6rem 1rem;flex-direction:row;flex-wrap:wrap;align-items:center}
.edit-actions .main-actions{flex-direction:row;flex:1 1 auto;order:2}
.edit-actions .main-actions button{width:auto;flex:1 1 0}
.edit-actions .more-actions{display:none}
.edit-actions .dirty{order:1;flex-basis:100%}
.more-box{display:block}
main#main.with-bar{padding-bottom:7rem}
.release-layout{grid-template-columns:minmax(0,1fr)}
.audit-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.audit-table tr{display:block;border-bottom:1px solid #e3e6ee;padding:.4rem 0}
.audit-table td{display:grid;grid-template-columns:5rem minmax(0,1fr);gap:.5rem;border:0;padding:.15rem .5rem;max-width:none}
.audit-table td::before{content:attr(data-label);font-weight:600;color:#4b5563}
}
@media (min-width:64.0625rem){
.more-box{display:none}
.side{position:sticky;top:4.5rem;align-self:start;max-height:calc(100vh - 7rem);overflow-y:auto;overscroll-behavior:contain}
}
@media (max-width:48rem){
.shell{grid-template-columns:minmax(0,1fr);grid-template-rows:3.5rem auto minmax(0,1fr);grid-template-areas:"top" "nav" "main"}
.menu-toggle{display:inline-block}
.sidebar{position:static;height:auto;display:none;border-right:0;border-bottom:1px solid #e3e6ee}
.sidebar.open{display:block}
.topbar .who{display:none}
main#main{padding:1rem}
.form-grid{padding:1rem 1rem .25rem}
.form-grid>.w-3,.form-grid>.w-4{grid-column:span 12}
h1{font-size:1.5rem}
.col-extra,.columns-menu{display:none}
table.entries th,table.entries td{padding:.4rem .3rem;font-size:.9rem}
.dialog-backdrop{align-items:stretch}
.dialog,.history-dialog{width:100vw;height:100%;max-height:none;border-radius:0}
.history-layout{grid-template-columns:minmax(0,1fr)}
.versions{position:static;max-height:40vh}
.diff-values{grid-template-columns:minmax(0,1fr)}
.version-content{grid-template-columns:minmax(0,1fr)}
.version-content dd{margin-bottom:.4rem}
.auth{margin:1rem auto;padding:1.25rem;width:calc(100% - 2rem)}
}
`;
