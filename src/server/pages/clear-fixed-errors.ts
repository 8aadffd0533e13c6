// The one script of a page sent back with answers to fix (customer-page.ts): as the customer changes a question, its
// message goes, as the React page's do (src/web/fill/questions/preview-form.tsx setValue), with its line in the
// summary; the counts in the summary and the bar follow, and the title loses its "Error: " once none is left. A
// browser without JavaScript keeps the messages until the page is sent again. Plain script, allowed by its hash.

/** The text of the inline script; written as the browser runs it (no build step touches it). */
export const CLEAR_FIXED_ERRORS = `(()=>{
const form=document.querySelector("form.fill-form");
if(!form)return;
const counted=/^(One|\\d+) (answers?|files?) (needs?) your attention\\.$/;
const clear=(event)=>{
const card=event.target instanceof Element&&event.target.closest(".fill-card");
const message=card&&card.querySelector(".fill-error");
if(!message)return;
message.remove();
for(const control of [card,...card.querySelectorAll("[aria-invalid],[aria-describedby]")]){
control.removeAttribute("aria-invalid");
const rest=(control.getAttribute("aria-describedby")||"").split(" ").filter((id)=>id&&id!==message.id);
if(rest.length)control.setAttribute("aria-describedby",rest.join(" "));else control.removeAttribute("aria-describedby");
}
const summary=document.querySelector(".fill-summary");
for(const link of summary?summary.querySelectorAll("a"):[]){
const target=document.getElementById(decodeURIComponent(link.hash.slice(1)));
if(target&&card.contains(target))link.closest("li").remove();
}
const left=form.querySelectorAll(".fill-error").length;
const files=form.querySelector(".fill-file-input");
const words=left===1?(files?"One file needs":"One answer needs"):left+(files?" files need":" answers need");
const bar=form.querySelector(".fill-bar [role=alert]");
if(bar&&counted.test(bar.textContent)){bar.textContent=left?words+" your attention.":"";if(!left)bar.className="";}
if(summary){
if(left)summary.querySelector("h2").textContent=(left===1?"One answer needs":left+" answers need")+" your attention";
else summary.remove();
}
if(!left)document.title=document.title.replace(/^Error: /,"");
};
form.addEventListener("input",clear);
form.addEventListener("change",clear);
})()`;
