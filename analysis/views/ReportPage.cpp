/// \file
/// The static page of the HTML report: inline CSS (light and dark, 1280 px and phone widths)
/// and an inline script that renders the embedded JSON: overview (launches ranked by waste, the
/// instructions to fix first), per-kernel source with heat and folded SASS, inline diagrams,
/// predicted vs measured. No network; sortable and filterable tables; keyboard shortcuts.
#include "analysis/views/ReportPage.h"

namespace warplens::analysis {

namespace {

std::string escapeHtml(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

const char *kCss = R"CSS(
:root{--bg:#f7f7f5;--fg:#1c2025;--mut:#5f6873;--line:#dfe2e6;--card:#fff;--head:#eef1f4;--acc:#1f5fc4;
--hot:#e4472c;--warm:#d98a00;--good:#1a8f4c;--bad:#c62828;--code:#fbfbfc;--mark:#fff1a8;color-scheme:light}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#14171b;--fg:#e2e5e9;--mut:#9aa4af;
--line:#2d333a;--card:#1b1f25;--head:#232830;--acc:#7eaaff;--hot:#ff6a4d;--warm:#f3b13d;--good:#4cc38a;
--bad:#ff6b6b;--code:#171b20;--mark:#4d4314;color-scheme:dark}}
:root[data-theme=dark]{--bg:#14171b;--fg:#e2e5e9;--mut:#9aa4af;--line:#2d333a;--card:#1b1f25;--head:#232830;
--acc:#7eaaff;--hot:#ff6a4d;--warm:#f3b13d;--good:#4cc38a;--bad:#ff6b6b;--code:#171b20;--mark:#4d4314;color-scheme:dark}
*{box-sizing:border-box}
html{scroll-padding-top:4.5em}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--acc);text-decoration:none}a:hover{text-decoration:underline}
header.top{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center;
padding:.5em 1.2em;background:var(--card);border-bottom:1px solid var(--line)}
header.top h1{font-size:1.05em;margin:0;white-space:nowrap}
header.top .sub{color:var(--mut);font-size:.88em}
header.top .tools{margin-left:auto;display:flex;gap:.5em;flex-wrap:wrap}
input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.2em .55em}
input[type=search]{width:15em;max-width:60vw}
button{cursor:pointer}button:hover{border-color:var(--acc)}
:focus-visible{outline:2px solid var(--acc);outline-offset:1px}
main{max-width:1440px;margin:0 auto;padding:0 1.2em 4em}
h2{font-size:1.25em;margin:1.3em 0 .45em}h3{font-size:1.02em;margin:1.1em 0 .4em}
.mut{color:var(--mut)}.small{font-size:.86em}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(210px,1fr));gap:.6em}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.55em .8em}
.card .big{font-size:1.45em;font-weight:650;overflow-wrap:anywhere;line-height:1.2}.card .big.name{font-size:1.1em}.card .lbl{color:var(--mut);font-size:.84em}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px;background:var(--card)}
table{border-collapse:collapse;width:100%}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
tr:last-child td{border-bottom:0}
th{background:var(--head);font-weight:600;white-space:nowrap;font-size:.9em}
th button{border:0;background:none;padding:0;font-weight:600;color:inherit}
th[aria-sort=ascending] button::after{content:" \25B2";font-size:.75em}
th[aria-sort=descending] button::after{content:" \25BC";font-size:.75em}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td code{white-space:nowrap}.itab td:last-child{min-width:17em}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.bar{display:inline-block;height:8px;border-radius:4px;background:var(--hot);vertical-align:middle;margin-right:6px}
.bar.sh{background:var(--warm)}
.sev0{color:var(--good)}.sev1{color:var(--warm)}.sev2{color:var(--hot)}
.dot{display:inline-block;width:.62em;height:.62em;border-radius:50%;background:currentColor;margin-right:.35em}
.badge{display:inline-block;padding:0 .5em;border-radius:10px;font-size:.78em;font-weight:650;border:1px solid currentColor;white-space:nowrap}
.ok{color:var(--good)}.bad{color:var(--bad)}
.diag{font-weight:600}.fix{color:var(--mut)}
ol.first{padding:0;margin:0;list-style:none;counter-reset:f}
ol.first li{counter-increment:f;display:grid;grid-template-columns:2em 1fr auto;gap:.1em .7em;padding:.5em .7em;border-bottom:1px solid var(--line)}
ol.first li:last-child{border-bottom:0}
ol.first li::before{content:counter(f);font-weight:700;color:var(--mut);font-size:1.15em}
ol.first .w{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
section.launch{margin-top:2.2em;padding-top:.3em;border-top:2px solid var(--line)}
section.launch h2{display:flex;flex-wrap:wrap;gap:.3em .7em;align-items:baseline;margin-top:.7em}
section.launch h2 code{font-size:.8em;font-weight:400;color:var(--mut)}
.stats{display:flex;flex-wrap:wrap;gap:.3em 1.4em;margin:.3em 0 .6em}
.stats b{font-variant-numeric:tabular-nums}
.note{color:var(--warm)}
.src{background:var(--code);border:1px solid var(--line);border-radius:8px;overflow-x:auto;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.srcin{min-width:max-content}
.ln{display:grid;grid-template-columns:1.7em 3.3em 8.6em 8.6em 3.4em 1.5em minmax(30em,1fr);align-items:baseline;
background:color-mix(in srgb,var(--hot) calc(var(--h,0)*42%),transparent)}
.ln.hd{position:sticky;top:0;background:var(--head);font-family:system-ui,sans-serif;font-size:.82em;font-weight:600;color:var(--mut)}
.ln>span{padding:0 .35em;white-space:pre}
.ln .no{color:var(--mut);text-align:right}
.ln .c{text-align:right;font-variant-numeric:tabular-nums}
.ln.mem .no{color:var(--fg);font-weight:600}
.ln.target,.ins.target{box-shadow:inset 3px 0 0 var(--acc);background-color:var(--mark)}
.tg{border:0;background:none;padding:0 .2em;font-size:.95em;color:var(--acc);line-height:1.2}
.tg[aria-expanded=true]{transform:rotate(90deg)}
.fold{position:sticky;left:0;width:min(calc(100vw - 2.6em),1410px);background:var(--card);border-top:1px solid var(--line);border-bottom:1px solid var(--line);padding:.3em .8em .5em 5.2em;font-family:system-ui,sans-serif;font-size:13.5px;white-space:normal}
.ins{padding:.45em .5em;border-bottom:1px dashed var(--line);border-radius:4px}
.ins:last-child{border-bottom:0}
.ins .top{display:flex;flex-wrap:wrap;gap:.2em .9em;align-items:baseline}
.nums{display:flex;flex-wrap:wrap;gap:.1em 1.1em;font-variant-numeric:tabular-nums;margin:.15em 0}
.panel{margin:.4em 0 .2em}
.paper{display:inline-block;max-width:100%;overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:6px;padding:4px;color:#111}
.paper svg{display:block}
ul.why{margin:.3em 0;padding-left:1.2em}
table.fixes{width:auto;margin:.3em 0}table.fixes td{padding:2px 8px}
details.totals{margin:.6em 0}details.totals summary{cursor:pointer;color:var(--mut)}
.hidden{display:none!important}
.kbd{font-family:ui-monospace,monospace;border:1px solid var(--line);border-radius:4px;padding:0 .3em;font-size:.85em}
footer{color:var(--mut);font-size:.85em;margin-top:3em}
@media (max-width:700px){header.top{padding:.4em .7em}main{padding:0 .6em 3em}
.cards{grid-template-columns:1fr 1fr}.card .big{font-size:1.2em}
.fold{padding-left:.8em}ol.first li{grid-template-columns:1.6em 1fr}ol.first .w{grid-column:2;text-align:left}
.ln{grid-template-columns:1.7em 3em 7.6em 7.6em 3em 1.4em minmax(26em,1fr)}input[type=search]{width:10em}}
@media print{header.top{position:static}.tg,.tools{display:none}}
)CSS";

// The rendering script. Data: reportToJson. Everything is built as HTML strings (fast for
// thousands of lines); diagrams are inserted when their panel opens (or with ?expand=all).
const char *kJs = R"JS(
(function(){
'use strict';
const t0=performance.now();
const D=JSON.parse(document.getElementById('data').textContent);
const $=s=>document.querySelector(s);
const q=$('#q'),sections=[];let filtered=false;
const esc=s=>String(s??'').replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
const NF=new Intl.NumberFormat('en-US',{maximumFractionDigits:2});
const fmt=n=>n===undefined||n===null?'':NF.format(n);
const pct=(a,b)=>b?(100*a/b).toFixed(1)+'%':'-';
const hex=v=>v===undefined?'':'0x'+v.toString(16).padStart(4,'0');
const TIME='gpu__time_duration.sum';
function dur(ns){if(ns===undefined||ns===null)return '';if(ns>=1e6)return (ns/1e6).toFixed(2)+' ms';if(ns>=1e3)return (ns/1e3).toFixed(1)+' \u00b5s';return fmt(ns)+' ns';}
const measured=!!D.measured_file;
const L=D.launches;
// per launch totals
L.forEach((l,i)=>{l.i=i;let s=0,si=0,w=0,wi=0,ws=0,ww=0;
 l.instructions.forEach((x,k)=>{x.k=k;if(x.measured_only)return;s+=x.sectors;si+=x.sectors_ideal;w+=x.wavefronts;wi+=x.wavefronts_ideal;ws+=x.waste_sectors;ww+=x.waste_wavefronts;});
 Object.assign(l,{s,si,w,wi,ws,ww,waste:ws+ww});
 l.ptime=l.metrics?l.metrics[TIME]:undefined;l.mtime=l.measured&&l.measured.metrics?l.measured.metrics[TIME]:undefined;
 l.worst=l.instructions.filter(x=>!x.measured_only).slice().sort((a,b)=>(b.waste_sectors+b.waste_wavefronts)-(a.waste_sectors+a.waste_wavefronts))[0];
 l.text=(l.name+' '+(l.kernel||'')+' '+l.instructions.map(x=>x.headline+' '+(x.fix||'')+' '+(x.sass||'')).join(' ')).toLowerCase();});
const hasP=L.some(l=>l.ptime!==undefined), hasM=L.some(l=>l.mtime!==undefined);
const rankKey=l=>hasP?(l.ptime??-1):l.waste;
L.slice().sort((a,b)=>rankKey(b)-rankKey(a)||a.i-b.i).forEach((l,r)=>{l.rank=r+1;});
const tot=L.reduce((a,l)=>({s:a.s+l.s,si:a.si+l.si,w:a.w+l.w,wi:a.wi+l.wi,ws:a.ws+l.ws,ww:a.ww+l.ww}),{s:0,si:0,w:0,wi:0,ws:0,ww:0});
const maxWs=Math.max(1,...L.map(l=>l.ws)),maxWw=Math.max(1,...L.map(l=>l.ww));
const bar=(v,m,cls)=>'<span class="bar '+(cls||'')+'" style="width:'+Math.max(v?2:0,Math.round(60*v/m))+'px"></span>';
const sevDot=x=>'<span class="dot sev'+x.severity+'" title="'+['ideal','some waste','at least 2\u00d7 ideal'][x.severity]+'"></span>';
const verdict=x=>x.verdict?'<span class="badge '+(x.ok?'ok':'bad')+'" title="'+esc((x.mismatches||[]).join('; ')||'predicted = measured')+'">'+esc(x.verdict)+'</span>':'';
const lref=l=>'L'+l.i, iref=(l,x)=>'I'+l.i+'-'+x.k, sref=(l,n)=>'S'+l.i+'-'+n;
const srcName=x=>x.source&&x.source.line>0?(x.source.file||'').split('/').pop()+':'+x.source.line:(x.ptx_line!==undefined?'ptx:'+x.ptx_line:'');
const diagText=x=>'<span class="diag sev'+x.severity+'">'+esc(x.headline)+'</span>'+(x.fix?' <span class="fix">\u2014 '+esc(x.fix)+'</span>':'');

// ---- sortable tables: cols = [{h, v(row)->sort key, c(row)->html, n:numeric, title}]
function table(id,cols,rows,sortCol,dir){
 let key=sortCol??-1,d=dir||-1;
 const head=cols.map((c,k)=>'<th'+(c.n?' class="n"':'')+(c.title?' title="'+esc(c.title)+'"':'')+' data-k="'+k+'"><button type="button">'+esc(c.h)+'</button></th>').join('');
 const wrap=document.createElement('div');wrap.className='scroll';
 wrap.innerHTML='<table id="'+id+'"><thead><tr>'+head+'</tr></thead><tbody></tbody></table>';
 const tb=wrap.querySelector('tbody');
 function fill(){const r=rows.slice();if(key>=0){const f=cols[key].v;r.sort((a,b)=>{const x=f(a),y=f(b);return (x<y?-1:x>y?1:0)*d;});}
  tb.innerHTML=r.map(x=>'<tr'+(x.rowAttr?x.rowAttr():'')+'>'+cols.map(c=>'<td'+(c.n?' class="n"':'')+'>'+c.c(x)+'</td>').join('')+'</tr>').join('');
  wrap.querySelectorAll('th').forEach((th,k)=>{if(k===key)th.setAttribute('aria-sort',d>0?'ascending':'descending');else th.removeAttribute('aria-sort');});
  applyFilter();}
 wrap.querySelector('thead').addEventListener('click',e=>{const th=e.target.closest('th');if(!th)return;const k=+th.dataset.k;d=key===k?-d:(cols[k].n?-1:1);key=k;fill();});
 wrap.fill=fill;fill();return wrap;}

// ---- header
const devices=[...new Set(L.filter(l=>l.measured&&l.measured.device).map(l=>l.measured.device))];
$('#sub').textContent=L.length+' launches'+(L[0]&&L[0].arch?' \u00b7 '+L[0].arch:'')+(L[0]&&L[0].sass_source?' \u00b7 SASS: '+L[0].sass_source:'')+(measured?' \u00b7 measured: '+(devices.join(', ')||D.measured_file):' \u00b7 predicted only');
$('#jump').innerHTML='<option value="">jump to launch\u2026</option>'+L.map(l=>'<option value="'+lref(l)+'">'+esc(l.name)+'</option>').join('');

// ---- overview
const ov=$('#overview');
let h='<h2>Overview</h2><div class="cards">';
h+='<div class="card"><div class="lbl">Wasted global sectors</div><div class="big sev'+(tot.ws?2:0)+'">'+fmt(tot.ws)+'</div><div class="small mut">of '+fmt(tot.s)+' sectors ('+pct(tot.ws,tot.s)+'); ideal '+fmt(tot.si)+'</div></div>';
h+='<div class="card"><div class="lbl">Wasted shared wavefronts</div><div class="big sev'+(tot.ww?2:0)+'">'+fmt(tot.ww)+'</div><div class="small mut">of '+fmt(tot.w)+' wavefronts ('+pct(tot.ww,tot.w)+'); ideal '+fmt(tot.wi)+'</div></div>';
const worstL=L.slice().sort((a,b)=>b.waste-a.waste)[0];
if(worstL)h+='<div class="card"><div class="lbl">Costliest launch</div><div class="big name"><a href="#'+lref(worstL)+'">'+esc(worstL.name)+'</a></div><div class="small mut">'+fmt(worstL.ws)+' sectors + '+fmt(worstL.ww)+' wavefronts over ideal</div></div>';
if(measured){let ex=0,n=0,bad=0;L.forEach(l=>l.instructions.forEach(x=>{if(x.verdict){n++;if(x.verdict==='ok')ex++;if(!x.ok)bad++;}}));
 h+='<div class="card"><div class="lbl">Predicted vs measured</div><div class="big '+(bad?'bad':'ok')+'">'+ex+' / '+n+' exact</div><div class="small mut">'+(bad?bad+' instruction(s) outside tolerance':'every instruction within tolerance')+' \u00b7 '+esc(devices.join(', ')||D.measured_file)+'</div></div>';}
else h+='<div class="card"><div class="lbl">Predicted vs measured</div><div class="big mut">no measurement</div><div class="small mut">add <code>--measured FILE</code> (probe JSON or ncu CSV)</div></div>';
h+='</div>';
// fix first: the source lines (per launch) with the most sectors and wavefronts over ideal
const groups=new Map();
L.forEach(l=>l.instructions.forEach(x=>{if(x.measured_only)return;const w=x.waste_sectors+x.waste_wavefronts;if(!w)return;
 const key=l.i+':'+(x.source&&x.source.line>0?x.source.line:'k'+x.k);let g=groups.get(key);
 if(!g){g={l,xs:[],w:0,ws:0,ww:0};groups.set(key,g);}g.xs.push(x);g.w+=w;g.ws+=x.waste_sectors;g.ww+=x.waste_wavefronts;}));
const all=[...groups.values()].sort((a,b)=>b.w-a.w);
const maxI=all.length?all[0].w:1;
const wasteText=g=>[g.ws?fmt(g.ws)+' sectors':'',g.ww?fmt(g.ww)+' wavefronts':''].filter(Boolean).join(' + ')+' over ideal';
h+='<h3>Fix first <span class="mut small">\u2014 source lines with the most sectors and wavefronts over ideal</span></h3>';
h+=all.length?'<div class="scroll"><ol class="first" id="fixfirst">'+all.slice(0,10).map(g=>{const l=g.l;
 const x=g.xs.slice().sort((a,b)=>(b.waste_sectors+b.waste_wavefronts)-(a.waste_sectors+a.waste_wavefronts))[0];
 const v=g.xs.filter(y=>y.verdict),vok=v.every(y=>y.ok);
 return '<li data-text="'+esc(l.text)+'"><div><a href="#'+iref(l,x)+'"><b>'+esc(l.name)+'</b> \u00b7 '+esc(srcName(x))+'</a> <code>'+esc(x.sass||x.ptx||'')+'</code>'+(g.xs.length>1?' <span class="mut small">and '+(g.xs.length-1)+' more like it</span>':'')+
  (v.length?' <span class="badge '+(vok?'ok':'bad')+'" title="predicted vs measured">'+(vok?'measured ok':'MISMATCH')+'</span>':'')+'<br>'+diagText(x)+'</div><div class="w">'+bar(g.w,maxI,g.ww>g.ws?'sh':'')+wasteText(g)+'</div></li>';}).join('')+'</ol></div>'
 :'<p class="ok">Every memory instruction is ideal: no sector or wavefront over ideal.</p>';
h+='<h3>Launches <span class="mut small">\u2014 ranked by '+(hasP?'predicted time':'waste (sectors + wavefronts over ideal)')+'; click a header to sort</span></h3>';
ov.innerHTML=h;
const lcols=[
 {h:'rank',v:l=>-l.rank,c:l=>String(l.rank),n:1,title:hasP?'by predicted time':'by sectors + wavefronts over ideal'},
 {h:'launch',v:l=>l.name,c:l=>'<a href="#'+lref(l)+'">'+esc(l.name)+'</a><div class="small mut mono">'+esc(l.kernel||'')+'</div>'},
 {h:'wasted sectors',v:l=>l.ws,c:l=>bar(l.ws,maxWs)+fmt(l.ws)+'<div class="small mut">'+fmt(l.s)+' total, '+pct(l.si,l.s)+' efficient</div>',n:1,title:'global sectors over ideal (l1tex__t_sectors - ideal)'},
 {h:'wasted wavefronts',v:l=>l.ww,c:l=>bar(l.ww,maxWw,'sh')+fmt(l.ww)+'<div class="small mut">'+fmt(l.w)+' total</div>',n:1,title:'shared wavefronts over ideal (bank conflicts)'}];
if(hasP)lcols.push({h:'predicted time',v:l=>l.ptime??-1,c:l=>dur(l.ptime),n:1,title:TIME});
if(hasM)lcols.push({h:'measured time',v:l=>l.mtime??-1,c:l=>dur(l.mtime),n:1,title:TIME+' measured'});
lcols.push({h:'worst instruction',v:l=>l.worst?l.worst.waste_sectors+l.worst.waste_wavefronts:0,c:l=>l.worst?'<a href="#'+iref(l,l.worst)+'" class="mono">'+esc(srcName(l.worst))+'</a> '+sevDot(l.worst)+esc(l.worst.headline)+(l.worst.fix?'<div class="small fix">'+esc(l.worst.fix)+'</div>':''):''});
if(measured)lcols.push({h:'measured',v:l=>l.measured?(l.measured.ok?1:0):-1,c:l=>l.measured?'<span class="badge '+(l.measured.ok?'ok':'bad')+'">'+(l.measured.ok?'ok':'MISMATCH')+'</span><div class="small mut">'+l.measured.exact+' exact'+(l.measured.group?', '+l.measured.group+' by group':'')+(l.measured.line?', '+l.measured.line+' by line':'')+(l.measured.mismatched?', '+l.measured.mismatched+' off':'')+'</div>':'<span class="mut">not measured</span>'});
L.forEach(l=>{l.rowAttr=()=>' data-text="'+esc(l.text)+'"';});
ov.appendChild(table('launches',lcols,L,0,-1));
if(D.only_measured&&D.only_measured.length)ov.insertAdjacentHTML('beforeend','<p class="note small">measured but not predicted: '+esc(D.only_measured.join(', '))+'</p>');
if(D.only_predicted&&D.only_predicted.length&&measured)ov.insertAdjacentHTML('beforeend','<p class="note small">predicted but not measured: '+esc(D.only_predicted.join(', '))+'</p>');

// ---- per launch
const host=$('#launches-detail');
function insCard(l,x){
 let s='<div class="ins" id="'+iref(l,x)+'"><div class="top">'+sevDot(x)+'<a class="mono" href="#row-'+iref(l,x)+'">'+(x.sass_pc!==undefined?hex(x.sass_pc):'ptx:'+(x.ptx_line??''))+'</a><code>'+esc(x.sass||x.ptx||'')+'</code><span class="mut small">'+esc([x.space,x.op,x.width_bytes?x.width_bytes+' B':''].filter(Boolean).join(' '))+'</span>'+verdict(x)+'</div>';
 s+='<div class="nums small"><span>executed <b>'+fmt(x.executed)+'</b></span>';
 const m=x.measured;
 if(x.space!=='shared')s+='<span>requests <b>'+fmt(x.requests)+'</b></span><span>sectors <b>'+fmt(x.sectors)+'</b> (ideal '+fmt(x.sectors_ideal)+', '+pct(x.sectors_ideal,x.sectors)+')'+(m?' \u00b7 measured <b>'+fmt(m.sectors)+'</b> (ideal '+fmt(m.sectors_ideal)+')':'')+'</span>';
 else s+='<span>wavefronts <b>'+fmt(x.wavefronts)+'</b> (ideal '+fmt(x.wavefronts_ideal)+')'+(m?' \u00b7 measured <b>'+fmt(m.wavefronts)+'</b> (ideal '+fmt(m.wavefronts_ideal)+')':'')+'</span><span>conflict ways <b>'+fmt(x.conflict_ways_max)+'</b></span>';
 if(m)s+='<span>measured executed <b>'+fmt(m.executed)+'</b></span>';
 s+='</div><div>'+diagText(x)+'</div>';
 if(x.mismatches&&x.mismatches.length)s+='<div class="small bad">'+esc(x.mismatches.join('; '))+'</div>';
 if(x.diagram)s+='<button type="button" class="dg" aria-expanded="false" data-l="'+l.i+'" data-k="'+x.k+'">show the costliest warp</button><div class="panel hidden"></div>';
 return s+'</div>';}
function diagramHtml(x){const d=x.diagram;
 let s='<div class="small"><b>'+esc(d.warp)+'</b>: '+fmt(d.cost)+' '+esc(d.unit)+' (ideal '+fmt(d.ideal)+'); '+fmt(d.as_bad)+' of '+fmt(d.executions)+' executions as costly</div>';
 s+='<div class="paper">'+d.svg+'</div>';
 if(d.why&&d.why.length)s+='<ul class="why small">'+d.why.map(w=>'<li>'+esc(w)+'</li>').join('')+'</ul>';
 if(d.fixes&&d.fixes.length)s+='<div class="small"><b>Candidate fixes</b>, each run through the same model on this warp:</div><table class="fixes small"><tr><th>rewrite</th><th class="n">'+esc(d.unit)+'</th></tr>'+d.fixes.map(f=>'<tr><td>'+esc(f.label)+'</td><td class="n '+(f.count<d.cost?'ok':'')+'">'+fmt(d.cost)+' \u2192 <b>'+fmt(f.count)+'</b></td></tr>').join('')+'</table>';
 return s;}
function sourceHtml(l){
 const byLine=new Map();l.instructions.forEach(x=>{const n=x.source&&x.source.line>0?x.source.line:0;if(!byLine.has(n))byLine.set(n,[]);byLine.get(n).push(x);});
 const lines=l.source&&D.sources[l.source]?D.sources[l.source]:null;
 let maxW=1;byLine.forEach(xs=>{maxW=Math.max(maxW,xs.reduce((a,x)=>a+x.waste_sectors+x.waste_wavefronts,0));});
 const ws=[];
 if(lines)for(let n=l.first_line;n<=l.last_line;n++)ws.push(n);
 else [...byLine.keys()].sort((a,b)=>a-b).forEach(n=>ws.push(n));
 let s='<div class="src"><div class="srcin"><div class="ln hd"><span></span><span class="no">line</span><span class="c">sectors / ideal</span><span class="c">wavefr. / ideal</span><span class="c">ways</span><span title="measured verdict">'+(measured?'\u2713':'')+'</span><span>'+esc(lines?l.source:'source not found: instructions by line')+'</span></div>';
 for(const n of ws){const xs=byLine.get(n)||[];const real=xs.filter(x=>!x.measured_only);
  const sum=f=>real.reduce((a,x)=>a+x[f],0);
  const w=real.reduce((a,x)=>a+x.waste_sectors+x.waste_wavefronts,0);
  const code=lines?(lines[n-1]??''):(xs.map(x=>x.sass||x.ptx).join('  |  '));
  const hasS=real.some(x=>x.space!=='shared'),hasW=real.some(x=>x.space==='shared');
  const mv=xs.filter(x=>x.verdict);const mok=mv.every(x=>x.ok);
  s+='<div class="ln'+(xs.length?' mem':'')+'" id="'+sref(l,n)+'" style="--h:'+(w/maxW).toFixed(3)+'">';
  s+='<span>'+(xs.length?'<button type="button" class="tg" aria-expanded="false" aria-label="'+xs.length+' SASS instruction(s) of line '+n+'" title="'+xs.length+' SASS instruction(s)">\u25B6</button>':'')+'</span>';
  s+='<span class="no">'+(n||'?')+'</span><span class="c">'+(hasS?fmt(sum('sectors'))+' / '+fmt(sum('sectors_ideal')):'')+'</span><span class="c">'+(hasW?fmt(sum('wavefronts'))+' / '+fmt(sum('wavefronts_ideal')):'')+'</span><span class="c">'+(hasW?fmt(Math.max(...real.filter(x=>x.space==='shared').map(x=>x.conflict_ways_max))):'')+'</span>';
  s+='<span>'+(mv.length?'<span class="'+(mok?'ok':'bad')+'" title="'+(mok?'measured = predicted':'measured differs')+'">'+(mok?'\u2713':'\u2717')+'</span>':'')+'</span><span>'+esc(code)+'</span></div>';
  if(xs.length)s+='<div class="fold hidden">'+xs.map(x=>insCard(l,x)).join('')+'</div>';}
 return s+'</div></div>';}
function launchHtml(l){
 const ck=l.check;
 let s='<h2 tabindex="-1"><span>'+esc(l.name)+'</span><code>'+esc(l.kernel||'')+'</code>';
 if(ck)s+='<span class="badge '+(ck.passed?'ok':'bad')+'">check '+(ck.passed?'passed':'FAILED')+'</span>';
 if(l.measured)s+='<span class="badge '+(l.measured.ok?'ok':'bad')+'">measured '+(l.measured.ok?'ok':'MISMATCH')+'</span>';
 s+='</h2><div class="small mut">grid '+esc((l.grid||[]).join(','))+' \u00b7 block '+esc((l.block||[]).join(','))+(l.arch?' \u00b7 '+esc(l.arch):'')+(l.sass_source?' \u00b7 SASS: '+esc(l.sass_source):'')+(l.measured&&l.measured.device?' \u00b7 measured on '+esc(l.measured.device):'')+(ck&&ck.detail?' \u00b7 check: '+esc(ck.detail):'')+'</div>';
 (l.notes||[]).forEach(n=>{s+='<div class="small note">note: '+esc(n)+'</div>';});
 s+='<div class="stats">';
 if(l.s)s+='<span>sectors <b>'+fmt(l.s)+'</b> (ideal '+fmt(l.si)+', '+pct(l.si,l.s)+' efficient)</span>';
 if(l.w)s+='<span>shared wavefronts <b>'+fmt(l.w)+'</b> (ideal '+fmt(l.wi)+')</span>';
 if(l.ptime!==undefined)s+='<span>predicted time <b>'+dur(l.ptime)+'</b></span>';
 if(l.mtime!==undefined)s+='<span>measured time <b>'+dur(l.mtime)+'</b></span>';
 s+='<span><button type="button" class="all" data-open="1">expand all</button> <button type="button" class="all" data-open="0">collapse</button></span></div>';
 s+='<h3>Source <span class="mut small">\u2014 heat = sectors and wavefronts over ideal; \u25B6 shows the SASS of a line</span></h3>'+sourceHtml(l);
 s+='<h3>Memory instructions</h3><div class="itab"></div>';
 s+='<details class="totals"><summary>kernel totals (Nsight Compute metric names)'+(l.measured?', predicted vs measured':'')+'</summary><div class="scroll"><table class="small"><tr><th>metric</th><th class="n">predicted</th>'+(l.measured?'<th class="n">measured</th><th>tolerance</th><th></th>':'')+'</tr>';
 if(l.measured&&l.measured.rows)l.measured.rows.forEach(r=>{s+='<tr><td class="mono">'+esc(r.metric)+'</td><td class="n">'+fmt(r.predicted)+'</td><td class="n">'+fmt(r.measured)+'</td><td>'+(r.compared?esc(r.tolerance):'')+'</td><td>'+(r.compared?'<span class="'+(r.ok?'ok':'bad')+'">'+(r.ok?'ok':'MISMATCH')+'</span>':'')+'</td></tr>';});
 else Object.entries(l.metrics||{}).forEach(([k,v])=>{s+='<tr><td class="mono">'+esc(k)+'</td><td class="n">'+fmt(v)+'</td></tr>';});
 return s+'</table></div></details>';}
const icols=l=>{const c=[
 {h:'pc',v:x=>x.sass_pc??x.ptx_line??-1,c:x=>'<a class="mono" href="#'+iref(l,x)+'" id="row-'+iref(l,x)+'">'+(x.sass_pc!==undefined?hex(x.sass_pc):'ptx:'+(x.ptx_line??''))+'</a>'},
 {h:'instruction',v:x=>x.sass||x.ptx||'',c:x=>'<code>'+esc(x.sass||x.ptx||'')+'</code>'},
 {h:'line',v:x=>x.source?x.source.line??0:0,c:x=>x.source&&x.source.line>0?'<a href="#'+sref(l,x.source.line)+'">'+x.source.line+'</a>':''},
 {h:'space',v:x=>x.space+' '+x.op,c:x=>esc((x.space||'')+' '+(x.op||'')+(x.width_bytes?' '+x.width_bytes+'B':''))},
 {h:'executed',v:x=>x.executed,c:x=>fmt(x.executed),n:1},
 {h:'sectors',v:x=>x.sectors,c:x=>x.space==='shared'?'':fmt(x.sectors),n:1},
 {h:'ideal',v:x=>x.sectors_ideal,c:x=>x.space==='shared'?'':fmt(x.sectors_ideal),n:1},
 {h:'efficiency',v:x=>x.sectors?x.sectors_ideal/x.sectors:2,c:x=>x.space==='shared'||!x.sectors?'':pct(x.sectors_ideal,x.sectors),n:1},
 {h:'wavefronts',v:x=>x.wavefronts,c:x=>x.space==='shared'?fmt(x.wavefronts):'',n:1},
 {h:'ideal',v:x=>x.wavefronts_ideal,c:x=>x.space==='shared'?fmt(x.wavefronts_ideal):'',n:1},
 {h:'ways',v:x=>x.conflict_ways_max,c:x=>x.space==='shared'?fmt(x.conflict_ways_max):'',n:1}];
 if(l.measured)c.push(
 {h:'meas. sectors',v:x=>x.measured?x.measured.sectors:-1,c:x=>x.measured&&x.space!=='shared'?fmt(x.measured.sectors):'',n:1,title:'smsp__sass_sectors_mem_global'},
 {h:'meas. wavefronts',v:x=>x.measured?x.measured.wavefronts:-1,c:x=>x.measured&&x.space==='shared'?fmt(x.measured.wavefronts):'',n:1,title:'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared'},
 {h:'verdict',v:x=>x.verdict||'',c:verdict});
 c.push({h:'diagnosis',v:x=>x.waste_sectors+x.waste_wavefronts,c:x=>sevDot(x)+esc(x.headline)});
 return c;};
for(const l of L){const sec=document.createElement('section');sec.className='launch';sec.id=lref(l);sec.dataset.text=l.text;
 sec.innerHTML=launchHtml(l);sec.querySelector('.itab').appendChild(table('itab'+l.i,icols(l),l.instructions.filter(()=>true),-1));host.appendChild(sec);sections.push(sec);}

// ---- interaction
function setFold(btn,open){btn.setAttribute('aria-expanded',open?'true':'false');const f=btn.closest('.ln').nextElementSibling;if(f&&f.classList.contains('fold'))f.classList.toggle('hidden',!open);}
function setDiagram(btn,open){const p=btn.nextElementSibling;if(open&&!p.dataset.done){const x=L[+btn.dataset.l].instructions[+btn.dataset.k];p.innerHTML=diagramHtml(x);p.dataset.done='1';}
 p.classList.toggle('hidden',!open);btn.setAttribute('aria-expanded',open?'true':'false');btn.textContent=open?'hide the costliest warp':'show the costliest warp';}
document.addEventListener('click',e=>{const t=e.target;
 if(t.closest('.tg')){const b=t.closest('.tg');setFold(b,b.getAttribute('aria-expanded')!=='true');return;}
 if(t.closest('.dg')){const b=t.closest('.dg');setDiagram(b,b.getAttribute('aria-expanded')!=='true');return;}
 if(t.closest('button.all')){const b=t.closest('button.all'),sec=b.closest('section'),o=b.dataset.open==='1';sec.querySelectorAll('.tg').forEach(g=>setFold(g,o));sec.querySelectorAll('.dg').forEach(g=>setDiagram(g,o));return;}
 const a=t.closest('a[href^="#"]');if(a){const id=a.getAttribute('href').slice(1);if(reveal(id)){e.preventDefault();history.replaceState(null,'','#'+id);}}});
let marked=null;
function reveal(id){const el=document.getElementById(id);if(!el)return false;
 const ln=el.classList.contains('ln')?el:(el.closest('.fold')?el.closest('.fold').previousElementSibling:null);
 if(ln){const b=ln.querySelector('.tg');if(b)setFold(b,true);}
 if(el.classList.contains('ins')){const b=el.querySelector('.dg');if(b)setDiagram(b,true);}
 if(marked)marked.classList.remove('target');if(el.classList.contains('ln')||el.classList.contains('ins')){el.classList.add('target');marked=el;}
 el.scrollIntoView({block:el.tagName==='SECTION'?'start':'center'});
 const f=el.tagName==='SECTION'?el.querySelector('h2'):el.matches('a,button')?el:el.querySelector('a,button');if(f)f.focus({preventScroll:true});return true;}
// filter
function applyFilter(){const s=q.value.trim().toLowerCase();if(!s&&!filtered)return;filtered=!!s;
 document.querySelectorAll('#launches tbody tr,#fixfirst li').forEach(r=>r.classList.toggle('hidden',!!s&&!(r.dataset.text||'').includes(s)));
 sections.forEach(sec=>sec.classList.toggle('hidden',!!s&&!sec.dataset.text.includes(s)));}
q.addEventListener('input',applyFilter);
$('#jump').addEventListener('change',e=>{if(e.target.value){reveal(e.target.value);history.replaceState(null,'','#'+e.target.value);}});
// theme
const root=document.documentElement;
try{const th=new URLSearchParams(location.search).get('theme')||localStorage.getItem('warplens-theme');if(th==='dark'||th==='light')root.dataset.theme=th;}catch(e){}
$('#theme').addEventListener('click',()=>{const dark=root.dataset.theme?root.dataset.theme==='dark':matchMedia('(prefers-color-scheme: dark)').matches;
 root.dataset.theme=dark?'light':'dark';try{localStorage.setItem('warplens-theme',root.dataset.theme);}catch(e){}});
// keys: / filter, j k next/previous launch, Escape clears
document.addEventListener('keydown',e=>{if(e.ctrlKey||e.metaKey||e.altKey)return;const inField=/INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName);
 if(e.key==='Escape'&&inField){q.value='';applyFilter();q.blur();return;}if(inField)return;
 if(e.key==='/'){e.preventDefault();q.focus();return;}
 if(e.key==='j'||e.key==='k'){const vis=sections.filter(s=>!s.classList.contains('hidden'));if(!vis.length)return;
  const y=window.scrollY+80;let i=vis.findIndex(s=>s.offsetTop>y);if(i<0)i=vis.length;
  const cur=vis.findIndex(s=>s.offsetTop<=y&&s.offsetTop+s.offsetHeight>y);
  const n=e.key==='j'?(cur>=0?cur+1:i):(cur>0?cur-1:Math.max(0,i-2));if(n<vis.length)reveal(vis[Math.max(0,n)].id);}});
const params=new URLSearchParams(location.search);
if(params.get('q')){q.value=params.get('q');applyFilter();}
if(params.get('expand')==='all'){document.querySelectorAll('.tg').forEach(b=>setFold(b,true));document.querySelectorAll('.dg').forEach(b=>setDiagram(b,true));}
if(location.hash.length>1)reveal(location.hash.slice(1));
root.dataset.renderMs=(performance.now()-t0).toFixed(1);
root.dataset.ready='1';
})();
)JS";

} // namespace

std::string reportPageHead(const std::string &title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
         "<meta name=\"color-scheme\" content=\"light dark\">\n<title>" +
         escapeHtml(title) + "</title>\n<style>" + kCss +
         "</style></head>\n"
         // window.onerror via the body attribute: script errors (syntax errors included) are
         // recorded on <html data-js-errors> for the browser test, without a third <script>.
         "<body onerror=\"var r=document.documentElement;r.dataset.jsErrors=(r.dataset.jsErrors||'')"
         "+event+' @'+lineno+';'\">\n"
         "<header class=\"top\"><h1>" +
         escapeHtml(title) +
         "</h1><span class=\"sub\" id=\"sub\"></span><div class=\"tools\">"
         "<input type=\"search\" id=\"q\" placeholder=\"filter (press /)\" aria-label=\"filter "
         "launches and instructions\"><select id=\"jump\" aria-label=\"jump to launch\"></select>"
         "<button type=\"button\" id=\"theme\" title=\"switch light/dark\">\u25D0 theme</button>"
         "</div></header>\n<main><section id=\"overview\"></section>\n"
         "<div id=\"launches-detail\"></div>\n"
         "<footer>Keys: <span class=\"kbd\">/</span> filter, <span class=\"kbd\">j</span> "
         "<span class=\"kbd\">k</span> next/previous launch, <span class=\"kbd\">Tab</span> "
         "through links and buttons. <span class=\"kbd\">?expand=all</span> in the address "
         "opens every line and diagram. Made by warplens; works offline.</footer></main>\n"
         "<script id=\"data\" type=\"application/json\">";
}

std::string reportPageTail() { return std::string("</script>\n<script>") + kJs + "</script>\n</body></html>\n"; }

} // namespace warplens::analysis
