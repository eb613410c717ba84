/// \file
/// HTML view of launch results: one self-contained file (inline CSS and JS, results JSON
/// embedded); a sortable table per launch with bars for coalescing efficiency and conflicts.
#include "analysis/views/ResultViews.h"

namespace warplens::analysis {

namespace {

/// JSON inside <script>: "</" would end the element, so it becomes "<\/".
std::string scriptSafe(const std::string &json) {
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out += json[i];
    }
  }
  return out;
}

const char *kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>warplens report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h2{margin:1.4em 0 .2em;font-size:1.15em}
.meta{color:#555;margin:.1em 0}.note{color:#8a5a00}.fail{color:#b00;font-weight:bold}
table{border-collapse:collapse;margin:.6em 0}
th,td{padding:2px 8px;border-bottom:1px solid #ddd;white-space:nowrap}
th{background:#f3f3f3;cursor:pointer;user-select:none;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.code{font-family:ui-monospace,monospace;font-size:12px}
.bar{display:inline-block;height:10px;vertical-align:middle;margin-right:4px}
.eff{background:#3a8}.conf{background:#d64}
details{margin:.3em 0}
</style></head><body>
<h1>warplens report</h1>
<p class="meta">Per memory instruction: requests, 32-byte sectors and coalescing efficiency
(global); wavefronts and conflict ways (shared). Click a column header to sort.</p>
<div id="out"></div>
<script id="data" type="application/json">
)HTML";

const char *kTail = R"HTML(
</script>
<script>
(function(){
const data=JSON.parse(document.getElementById('data').textContent);
const out=document.getElementById('out');
function el(t,cls,txt){const e=document.createElement(t);if(cls)e.className=cls;if(txt!==undefined)e.textContent=txt;return e;}
function pc(v){return v===undefined?'':'0x'+v.toString(16).padStart(4,'0');}
function bar(frac,cls,label){const s=el('span');const b=el('span','bar '+cls);b.style.width=Math.round(Math.max(0,Math.min(1,frac))*60)+'px';s.appendChild(b);s.appendChild(document.createTextNode(label));return s;}
const cols=[
 ['pc',i=>i.sass_pc??-1,i=>i.sass_pc!==undefined?pc(i.sass_pc):(i.ptx_line!==undefined?'ptx:'+i.ptx_line:''),'code'],
 ['instruction',i=>i.sass||i.ptx||'',i=>i.sass||i.ptx||'','code'],
 ['source',i=>i.source?i.source.line??0:0,i=>i.source?(i.source.file||'').split('/').pop()+':'+(i.source.line??''):'',''],
 ['space',i=>i.space||'',i=>i.space||'',''],['op',i=>i.op||'',i=>i.op||'',''],
 ['width',i=>i.width_bytes||0,i=>i.width_bytes||'','n'],
 ['executed',i=>i.executed,i=>i.executed,'n'],
 ['requests',i=>i.requests,i=>i.space==='shared'?'':i.requests,'n'],
 ['sectors',i=>i.sectors,i=>i.space==='shared'?'':i.sectors,'n'],
 ['ideal',i=>i.sectors_ideal,i=>i.space==='shared'?'':i.sectors_ideal,'n'],
 ['efficiency',i=>i.sectors?i.sectors_ideal/i.sectors:2,i=>i.space==='shared'||!i.sectors?'':bar(i.sectors_ideal/i.sectors,'eff',(100*i.sectors_ideal/i.sectors).toFixed(1)+'%'),''],
 ['wavefronts',i=>i.wavefronts,i=>i.space==='shared'?i.wavefronts:'','n'],
 ['ideal',i=>i.wavefronts_ideal,i=>i.space==='shared'?i.wavefronts_ideal:'','n'],
 ['conflict ways',i=>i.conflict_ways_max,i=>i.space==='shared'?bar(i.conflict_ways_max/32,'conf',String(i.conflict_ways_max)):'',''],
];
function table(rows){
 const t=el('table');const head=el('tr');const body=el('tbody');let key=-1,dir=1;
 function fill(){body.innerHTML='';const r=rows.slice();if(key>=0)r.sort((a,b)=>{const x=cols[key][1](a),y=cols[key][1](b);return (x<y?-1:x>y?1:0)*dir;});
  for(const i of r){const tr=el('tr');for(const c of cols){const td=el('td',c[3]);const v=c[2](i);if(v instanceof Node)td.appendChild(v);else td.textContent=v;tr.appendChild(td);}body.appendChild(tr);}}
 cols.forEach((c,k)=>{const th=el('th','',c[0]);th.onclick=()=>{dir=key===k?-dir:1;key=k;fill();};head.appendChild(th);});
 const th=el('thead');th.appendChild(head);t.appendChild(th);t.appendChild(body);fill();return t;}
for(const L of data.launches){
 out.appendChild(el('h2','',L.name+(L.kernel?'  ('+L.kernel+')':'')));
 out.appendChild(el('p','meta','grid '+(L.grid||[]).join(',')+'  block '+(L.block||[]).join(',')+(L.arch?'  arch '+L.arch:'')+(L.device?'  device '+L.device:'')+(L.sass_source?'  sass: '+L.sass_source:'')));
 if(L.check)out.appendChild(el('p',L.check.passed?'meta':'fail','check: '+(L.check.passed?'passed':'FAILED')+(L.check.detail?' ('+L.check.detail+')':'')));
 for(const n of (L.notes||[]))out.appendChild(el('p','note','note: '+n));
 out.appendChild(table(L.instructions||[]));
 const d=el('details');d.appendChild(el('summary','','totals (Nsight Compute metric names)'));
 const mt=el('table');for(const [k,v] of Object.entries(L.metrics||{})){const tr=el('tr');tr.appendChild(el('td','code',k));tr.appendChild(el('td','n',String(v)));mt.appendChild(tr);}
 d.appendChild(mt);out.appendChild(d);
}
})();
</script>
</body></html>
)HTML";

} // namespace

std::string renderResultsHtml(const std::vector<launch::LaunchResult> &results) {
  return std::string(kHead) + scriptSafe(launch::toJson(results).dump()) + kTail;
}

} // namespace warplens::analysis
