// @ts-nocheck
// Generated from schemas/policy.schema.json by scripts/generate-validators.ts (Ajv standalone code). Do not edit:
// run `node --import tsx scripts/generate-validators.ts` after changing the schema.
import { ucs2length } from '../document/ucs2length.ts';
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://w3id.org/switchyard/schemas/policy.schema.json","title":"Switchyard runtime policy","description":"Timing of a run (deadlines, back-off, jitter, Retry-After, concurrency, gates) and error classification, kept out of the DAG document. Every part is optional; what is left out keeps its default.","type":"object","additionalProperties":false,"properties":{"$schema":{"description":"The schema this file follows, for editors; ignored by Switchyard.","type":"string"},"defaults":{"description":"Timing of every placement unless a node or placement override says otherwise.","$ref":"#/$defs/timing"},"nodes":{"description":"Timing overrides by node IRI; they apply wherever the node is placed.","type":"object","propertyNames":{"minLength":1},"additionalProperties":{"$ref":"#/$defs/timing"}},"placements":{"description":"Timing overrides by placement key (every document), or by '<dag IRI>#<key>' (one document only); these win over node overrides.","type":"object","propertyNames":{"minLength":1},"additionalProperties":{"$ref":"#/$defs/timing"}},"run":{"description":"Limits of a whole run.","type":"object","additionalProperties":false,"properties":{"deadlineMs":{"description":"The whole run's deadline in milliseconds; null = none. A retry whose wait does not fit the remaining time takes the exhaustion route.","$ref":"#/$defs/deadline"}}},"classification":{"description":"Which errors thrown by nodes are retryable.","type":"object","additionalProperties":false,"properties":{"retryableStatuses":{"description":"HTTP statuses that are retried.","$ref":"#/$defs/statuses"},"retryableStatusesWithHint":{"description":"HTTP statuses retried only when the error carries a usable Retry-After (retry-after-ms, or retry-after seconds or HTTP-date), such as a 413 whose condition is temporary.","$ref":"#/$defs/statuses"},"nonRetryableStatuses":{"description":"HTTP statuses never retried, even 5xx ones or ones listed as retryable.","$ref":"#/$defs/statuses"},"retry5xx":{"description":"Retry every 5xx status not listed as non-retryable.","type":"boolean"},"retryableCodes":{"description":"Error codes (e.g. ECONNRESET) that are retried.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}},"retryTimeouts":{"description":"Retry deadline and timeout errors.","type":"boolean"},"maxDepth":{"description":"How many levels of 'cause' / 'errors' chains are searched.","type":"integer","minimum":0,"maximum":64}}},"gates":{"description":"Gates by name: limits shared by every execution of the placements and nodes they list, across items, runs and workers (a provider's rate limit, an API key's concurrency). A rate-limit answer under a gate pauses it for everyone until the Retry-After passes. See docs/POLICY.md.","type":"object","propertyNames":{"pattern":"^[A-Za-z0-9_.-]+$","maxLength":64},"additionalProperties":{"$ref":"#/$defs/gate"}}},"$defs":{"deadline":{"type":["number","null"],"exclusiveMinimum":0},"statuses":{"type":"array","uniqueItems":true,"items":{"type":"integer","minimum":100,"maximum":599}},"timing":{"description":"Timing of a placement; any subset of the fields.","type":"object","additionalProperties":false,"properties":{"deadlineMs":{"description":"How long one execution may take before it is cut and routed as a timeout, in milliseconds; null = no deadline.","$ref":"#/$defs/deadline"},"backoff":{"description":"The wait before a retry target runs.","type":"object","additionalProperties":false,"properties":{"strategy":{"description":"exponential: base x factor^(attempt-1); constant: base; decorrelated: random between base and previous x factor.","enum":["exponential","constant","decorrelated"]},"baseMs":{"description":"The first delay, the constant delay, or the decorrelated floor, in milliseconds.","type":"number","minimum":0},"factor":{"description":"Growth per attempt (exponential) or the upper multiplier (decorrelated; 3 when a layer switches to decorrelated without one).","type":"number","minimum":1},"capMs":{"description":"No computed delay exceeds this, in milliseconds.","type":"number","minimum":0}}},"jitter":{"description":"none: the delay; full: random x delay; equal: half the delay plus a random half.","enum":["none","full","equal"]},"retryAfter":{"description":"How a Retry-After hint (ms, seconds or HTTP-date) is treated.","type":"object","additionalProperties":false,"properties":{"honour":{"description":"When false, hints are ignored and the back-off applies.","type":"boolean"},"capMs":{"description":"A longer hint is cut to this, in milliseconds.","type":"number","minimum":0}}},"concurrency":{"description":"Most items of one run executing the placement at once. For a scatter: most of its children in flight at once across the whole run, the children of every item that reaches it counted together.","type":"integer","minimum":1}}},"gate":{"description":"One gate: the executions it covers and the limits it holds per key.","type":"object","additionalProperties":false,"properties":{"placements":{"description":"Placement keys (every document) or '<dag IRI>#<key>' (one document) whose executions pass through the gate.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}},"nodes":{"description":"Node IRIs: every placement of these nodes passes through the gate.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}},"concurrency":{"description":"Most executions under one key of the gate at once, across every run and worker sharing it.","type":"integer","minimum":1},"rate":{"description":"Most executions started under one key per period: a token bucket of 'burst' tokens refilled at limit per periodMs.","type":"object","additionalProperties":false,"required":["limit"],"properties":{"limit":{"description":"Executions per period.","type":"number","exclusiveMinimum":0},"periodMs":{"description":"The period, in milliseconds (1000 when left out).","type":"number","exclusiveMinimum":0},"burst":{"description":"How many may start at once after a quiet spell (1 when left out: evenly paced).","type":"integer","minimum":1}}},"pauseOnRetryAfter":{"description":"A rate-limit answer (see closeOn) under the gate closes its key for everyone until the answer's Retry-After passes, or for the back-off without one. On when left out.","type":"boolean"},"maxClosedMs":{"description":"The longest one answer may keep the gate closed, in milliseconds; the placement's retryAfter.capMs when left out. A wait at the gate counts against the placement's deadline; inspect --policy shows this as the longest wait of an item alone, per visit (see docs/POLICY.md).","type":"number","minimum":0},"closeOn":{"description":"Which answers close the gate.","type":"object","additionalProperties":false,"properties":{"statuses":{"description":"HTTP statuses that close it (default [429]).","$ref":"#/$defs/statuses"},"statusesWithHint":{"description":"HTTP statuses that close it only with a usable Retry-After (default [503]).","$ref":"#/$defs/statuses"}}},"keys":{"description":"A regular expression the finer keys nodes name at run time (gateKey) must match whole, e.g. '^gpt-[a-z0-9.-]+$'; each such key is limited and closed on its own, as '<gate>:<key>'. Without it nodes may not name keys.","type":"string","minLength":1}}}}};
const schema33 = {"type":["number","null"],"exclusiveMinimum":0};
const schema35 = {"type":"array","uniqueItems":true,"items":{"type":"integer","minimum":100,"maximum":599}};
const schema32 = {"description":"Timing of a placement; any subset of the fields.","type":"object","additionalProperties":false,"properties":{"deadlineMs":{"description":"How long one execution may take before it is cut and routed as a timeout, in milliseconds; null = no deadline.","$ref":"#/$defs/deadline"},"backoff":{"description":"The wait before a retry target runs.","type":"object","additionalProperties":false,"properties":{"strategy":{"description":"exponential: base x factor^(attempt-1); constant: base; decorrelated: random between base and previous x factor.","enum":["exponential","constant","decorrelated"]},"baseMs":{"description":"The first delay, the constant delay, or the decorrelated floor, in milliseconds.","type":"number","minimum":0},"factor":{"description":"Growth per attempt (exponential) or the upper multiplier (decorrelated; 3 when a layer switches to decorrelated without one).","type":"number","minimum":1},"capMs":{"description":"No computed delay exceeds this, in milliseconds.","type":"number","minimum":0}}},"jitter":{"description":"none: the delay; full: random x delay; equal: half the delay plus a random half.","enum":["none","full","equal"]},"retryAfter":{"description":"How a Retry-After hint (ms, seconds or HTTP-date) is treated.","type":"object","additionalProperties":false,"properties":{"honour":{"description":"When false, hints are ignored and the back-off applies.","type":"boolean"},"capMs":{"description":"A longer hint is cut to this, in milliseconds.","type":"number","minimum":0}}},"concurrency":{"description":"Most items of one run executing the placement at once. For a scatter: most of its children in flight at once across the whole run, the children of every item that reaches it counted together.","type":"integer","minimum":1}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((key0 === "deadlineMs") || (key0 === "backoff")) || (key0 === "jitter")) || (key0 === "retryAfter")) || (key0 === "concurrency"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.deadlineMs !== undefined){
let data0 = data.deadlineMs;
if((!((typeof data0 == "number") && (isFinite(data0)))) && (data0 !== null)){
const err1 = {instancePath:instancePath+"/deadlineMs",schemaPath:"#/$defs/deadline/type",keyword:"type",params:{type: schema33.type},message:"must be number,null",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 <= 0 || isNaN(data0)){
const err2 = {instancePath:instancePath+"/deadlineMs",schemaPath:"#/$defs/deadline/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
if(data.backoff !== undefined){
let data1 = data.backoff;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
for(const key1 in data1){
if(!((((key1 === "strategy") || (key1 === "baseMs")) || (key1 === "factor")) || (key1 === "capMs"))){
const err3 = {instancePath:instancePath+"/backoff",schemaPath:"#/properties/backoff/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema32.properties.backoff,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data1.strategy !== undefined){
let data2 = data1.strategy;
if(!(((data2 === "exponential") || (data2 === "constant")) || (data2 === "decorrelated"))){
const err4 = {instancePath:instancePath+"/backoff/strategy",schemaPath:"#/properties/backoff/properties/strategy/enum",keyword:"enum",params:{allowedValues: schema32.properties.backoff.properties.strategy.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.backoff.properties.strategy.enum,parentSchema:schema32.properties.backoff.properties.strategy,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data1.baseMs !== undefined){
let data3 = data1.baseMs;
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 < 0 || isNaN(data3)){
const err5 = {instancePath:instancePath+"/backoff/baseMs",schemaPath:"#/properties/backoff/properties/baseMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema32.properties.backoff.properties.baseMs,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/backoff/baseMs",schemaPath:"#/properties/backoff/properties/baseMs/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema32.properties.backoff.properties.baseMs.type,parentSchema:schema32.properties.backoff.properties.baseMs,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data1.factor !== undefined){
let data4 = data1.factor;
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 < 1 || isNaN(data4)){
const err7 = {instancePath:instancePath+"/backoff/factor",schemaPath:"#/properties/backoff/properties/factor/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.backoff.properties.factor,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/backoff/factor",schemaPath:"#/properties/backoff/properties/factor/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema32.properties.backoff.properties.factor.type,parentSchema:schema32.properties.backoff.properties.factor,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.capMs !== undefined){
let data5 = data1.capMs;
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 < 0 || isNaN(data5)){
const err9 = {instancePath:instancePath+"/backoff/capMs",schemaPath:"#/properties/backoff/properties/capMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema32.properties.backoff.properties.capMs,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/backoff/capMs",schemaPath:"#/properties/backoff/properties/capMs/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema32.properties.backoff.properties.capMs.type,parentSchema:schema32.properties.backoff.properties.capMs,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/backoff",schemaPath:"#/properties/backoff/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.backoff.type,parentSchema:schema32.properties.backoff,data:data1};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.jitter !== undefined){
let data6 = data.jitter;
if(!(((data6 === "none") || (data6 === "full")) || (data6 === "equal"))){
const err12 = {instancePath:instancePath+"/jitter",schemaPath:"#/properties/jitter/enum",keyword:"enum",params:{allowedValues: schema32.properties.jitter.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.jitter.enum,parentSchema:schema32.properties.jitter,data:data6};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.retryAfter !== undefined){
let data7 = data.retryAfter;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key2 in data7){
if(!((key2 === "honour") || (key2 === "capMs"))){
const err13 = {instancePath:instancePath+"/retryAfter",schemaPath:"#/properties/retryAfter/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema32.properties.retryAfter,data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data7.honour !== undefined){
let data8 = data7.honour;
if(typeof data8 !== "boolean"){
const err14 = {instancePath:instancePath+"/retryAfter/honour",schemaPath:"#/properties/retryAfter/properties/honour/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.retryAfter.properties.honour.type,parentSchema:schema32.properties.retryAfter.properties.honour,data:data8};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data7.capMs !== undefined){
let data9 = data7.capMs;
if((typeof data9 == "number") && (isFinite(data9))){
if(data9 < 0 || isNaN(data9)){
const err15 = {instancePath:instancePath+"/retryAfter/capMs",schemaPath:"#/properties/retryAfter/properties/capMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema32.properties.retryAfter.properties.capMs,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/retryAfter/capMs",schemaPath:"#/properties/retryAfter/properties/capMs/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema32.properties.retryAfter.properties.capMs.type,parentSchema:schema32.properties.retryAfter.properties.capMs,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/retryAfter",schemaPath:"#/properties/retryAfter/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.retryAfter.type,parentSchema:schema32.properties.retryAfter,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.concurrency !== undefined){
let data10 = data.concurrency;
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err18 = {instancePath:instancePath+"/concurrency",schemaPath:"#/properties/concurrency/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.concurrency.type,parentSchema:schema32.properties.concurrency,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 < 1 || isNaN(data10)){
const err19 = {instancePath:instancePath+"/concurrency",schemaPath:"#/properties/concurrency/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.concurrency,data:data10};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema38 = {"description":"One gate: the executions it covers and the limits it holds per key.","type":"object","additionalProperties":false,"properties":{"placements":{"description":"Placement keys (every document) or '<dag IRI>#<key>' (one document) whose executions pass through the gate.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}},"nodes":{"description":"Node IRIs: every placement of these nodes passes through the gate.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}},"concurrency":{"description":"Most executions under one key of the gate at once, across every run and worker sharing it.","type":"integer","minimum":1},"rate":{"description":"Most executions started under one key per period: a token bucket of 'burst' tokens refilled at limit per periodMs.","type":"object","additionalProperties":false,"required":["limit"],"properties":{"limit":{"description":"Executions per period.","type":"number","exclusiveMinimum":0},"periodMs":{"description":"The period, in milliseconds (1000 when left out).","type":"number","exclusiveMinimum":0},"burst":{"description":"How many may start at once after a quiet spell (1 when left out: evenly paced).","type":"integer","minimum":1}}},"pauseOnRetryAfter":{"description":"A rate-limit answer (see closeOn) under the gate closes its key for everyone until the answer's Retry-After passes, or for the back-off without one. On when left out.","type":"boolean"},"maxClosedMs":{"description":"The longest one answer may keep the gate closed, in milliseconds; the placement's retryAfter.capMs when left out. A wait at the gate counts against the placement's deadline; inspect --policy shows this as the longest wait of an item alone, per visit (see docs/POLICY.md).","type":"number","minimum":0},"closeOn":{"description":"Which answers close the gate.","type":"object","additionalProperties":false,"properties":{"statuses":{"description":"HTTP statuses that close it (default [429]).","$ref":"#/$defs/statuses"},"statusesWithHint":{"description":"HTTP statuses that close it only with a usable Retry-After (default [503]).","$ref":"#/$defs/statuses"}}},"keys":{"description":"A regular expression the finer keys nodes name at run time (gateKey) must match whole, e.g. '^gpt-[a-z0-9.-]+$'; each such key is limited and closed on its own, as '<gate>:<key>'. Without it nodes may not name keys.","type":"string","minLength":1}}};
const func1 = ucs2length;

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((((key0 === "placements") || (key0 === "nodes")) || (key0 === "concurrency")) || (key0 === "rate")) || (key0 === "pauseOnRetryAfter")) || (key0 === "maxClosedMs")) || (key0 === "closeOn")) || (key0 === "keys"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.placements !== undefined){
let data0 = data.placements;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 === "string"){
if(func1(data1) < 1){
const err1 = {instancePath:instancePath+"/placements/" + i0,schemaPath:"#/properties/placements/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema38.properties.placements.items,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/placements/" + i0,schemaPath:"#/properties/placements/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.placements.items.type,parentSchema:schema38.properties.placements.items,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
let i1 = data0.length;
let j0;
if(i1 > 1){
const indices0 = {};
for(;i1--;){
let item0 = data0[i1];
if(typeof item0 !== "string"){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err3 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema38.properties.placements,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
break;
}
indices0[item0] = i1;
}
}
}
else {
const err4 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema38.properties.placements.type,parentSchema:schema38.properties.placements,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.nodes !== undefined){
let data2 = data.nodes;
if(Array.isArray(data2)){
const len1 = data2.length;
for(let i2=0; i2<len1; i2++){
let data3 = data2[i2];
if(typeof data3 === "string"){
if(func1(data3) < 1){
const err5 = {instancePath:instancePath+"/nodes/" + i2,schemaPath:"#/properties/nodes/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema38.properties.nodes.items,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/nodes/" + i2,schemaPath:"#/properties/nodes/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.nodes.items.type,parentSchema:schema38.properties.nodes.items,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
let i3 = data2.length;
let j1;
if(i3 > 1){
const indices1 = {};
for(;i3--;){
let item1 = data2[i3];
if(typeof item1 !== "string"){
continue;
}
if(typeof indices1[item1] == "number"){
j1 = indices1[item1];
const err7 = {instancePath:instancePath+"/nodes",schemaPath:"#/properties/nodes/uniqueItems",keyword:"uniqueItems",params:{i: i3, j: j1},message:"must NOT have duplicate items (items ## "+j1+" and "+i3+" are identical)",schema:true,parentSchema:schema38.properties.nodes,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
break;
}
indices1[item1] = i3;
}
}
}
else {
const err8 = {instancePath:instancePath+"/nodes",schemaPath:"#/properties/nodes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema38.properties.nodes.type,parentSchema:schema38.properties.nodes,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.concurrency !== undefined){
let data4 = data.concurrency;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
const err9 = {instancePath:instancePath+"/concurrency",schemaPath:"#/properties/concurrency/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema38.properties.concurrency.type,parentSchema:schema38.properties.concurrency,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 < 1 || isNaN(data4)){
const err10 = {instancePath:instancePath+"/concurrency",schemaPath:"#/properties/concurrency/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema38.properties.concurrency,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
if(data.rate !== undefined){
let data5 = data.rate;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.limit === undefined){
const err11 = {instancePath:instancePath+"/rate",schemaPath:"#/properties/rate/required",keyword:"required",params:{missingProperty: "limit"},message:"must have required property '"+"limit"+"'",schema:schema38.properties.rate.required,parentSchema:schema38.properties.rate,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
for(const key1 in data5){
if(!(((key1 === "limit") || (key1 === "periodMs")) || (key1 === "burst"))){
const err12 = {instancePath:instancePath+"/rate",schemaPath:"#/properties/rate/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema38.properties.rate,data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data5.limit !== undefined){
let data6 = data5.limit;
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 <= 0 || isNaN(data6)){
const err13 = {instancePath:instancePath+"/rate/limit",schemaPath:"#/properties/rate/properties/limit/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema38.properties.rate.properties.limit,data:data6};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/rate/limit",schemaPath:"#/properties/rate/properties/limit/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema38.properties.rate.properties.limit.type,parentSchema:schema38.properties.rate.properties.limit,data:data6};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data5.periodMs !== undefined){
let data7 = data5.periodMs;
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 <= 0 || isNaN(data7)){
const err15 = {instancePath:instancePath+"/rate/periodMs",schemaPath:"#/properties/rate/properties/periodMs/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema38.properties.rate.properties.periodMs,data:data7};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/rate/periodMs",schemaPath:"#/properties/rate/properties/periodMs/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema38.properties.rate.properties.periodMs.type,parentSchema:schema38.properties.rate.properties.periodMs,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data5.burst !== undefined){
let data8 = data5.burst;
if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){
const err17 = {instancePath:instancePath+"/rate/burst",schemaPath:"#/properties/rate/properties/burst/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema38.properties.rate.properties.burst.type,parentSchema:schema38.properties.rate.properties.burst,data:data8};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if((typeof data8 == "number") && (isFinite(data8))){
if(data8 < 1 || isNaN(data8)){
const err18 = {instancePath:instancePath+"/rate/burst",schemaPath:"#/properties/rate/properties/burst/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema38.properties.rate.properties.burst,data:data8};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
}
else {
const err19 = {instancePath:instancePath+"/rate",schemaPath:"#/properties/rate/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema38.properties.rate.type,parentSchema:schema38.properties.rate,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.pauseOnRetryAfter !== undefined){
let data9 = data.pauseOnRetryAfter;
if(typeof data9 !== "boolean"){
const err20 = {instancePath:instancePath+"/pauseOnRetryAfter",schemaPath:"#/properties/pauseOnRetryAfter/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema38.properties.pauseOnRetryAfter.type,parentSchema:schema38.properties.pauseOnRetryAfter,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.maxClosedMs !== undefined){
let data10 = data.maxClosedMs;
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 < 0 || isNaN(data10)){
const err21 = {instancePath:instancePath+"/maxClosedMs",schemaPath:"#/properties/maxClosedMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema38.properties.maxClosedMs,data:data10};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/maxClosedMs",schemaPath:"#/properties/maxClosedMs/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema38.properties.maxClosedMs.type,parentSchema:schema38.properties.maxClosedMs,data:data10};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.closeOn !== undefined){
let data11 = data.closeOn;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
for(const key2 in data11){
if(!((key2 === "statuses") || (key2 === "statusesWithHint"))){
const err23 = {instancePath:instancePath+"/closeOn",schemaPath:"#/properties/closeOn/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema38.properties.closeOn,data:data11};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data11.statuses !== undefined){
let data12 = data11.statuses;
if(Array.isArray(data12)){
const len2 = data12.length;
for(let i4=0; i4<len2; i4++){
let data13 = data12[i4];
if(!(((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13))) && (isFinite(data13)))){
const err24 = {instancePath:instancePath+"/closeOn/statuses/" + i4,schemaPath:"#/$defs/statuses/items/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.items.type,parentSchema:schema35.items,data:data13};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if((typeof data13 == "number") && (isFinite(data13))){
if(data13 > 599 || isNaN(data13)){
const err25 = {instancePath:instancePath+"/closeOn/statuses/" + i4,schemaPath:"#/$defs/statuses/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema35.items,data:data13};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(data13 < 100 || isNaN(data13)){
const err26 = {instancePath:instancePath+"/closeOn/statuses/" + i4,schemaPath:"#/$defs/statuses/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema35.items,data:data13};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
let i5 = data12.length;
let j2;
if(i5 > 1){
const indices2 = {};
for(;i5--;){
let item2 = data12[i5];
if(!(((typeof item2 == "number") && (!(item2 % 1) && !isNaN(item2))) && (isFinite(item2)))){
continue;
}
if(typeof indices2[item2] == "number"){
j2 = indices2[item2];
const err27 = {instancePath:instancePath+"/closeOn/statuses",schemaPath:"#/$defs/statuses/uniqueItems",keyword:"uniqueItems",params:{i: i5, j: j2},message:"must NOT have duplicate items (items ## "+j2+" and "+i5+" are identical)",schema:true,parentSchema:schema35,data:data12};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
break;
}
indices2[item2] = i5;
}
}
}
else {
const err28 = {instancePath:instancePath+"/closeOn/statuses",schemaPath:"#/$defs/statuses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema35.type,parentSchema:schema35,data:data12};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data11.statusesWithHint !== undefined){
let data14 = data11.statusesWithHint;
if(Array.isArray(data14)){
const len3 = data14.length;
for(let i6=0; i6<len3; i6++){
let data15 = data14[i6];
if(!(((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15))) && (isFinite(data15)))){
const err29 = {instancePath:instancePath+"/closeOn/statusesWithHint/" + i6,schemaPath:"#/$defs/statuses/items/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.items.type,parentSchema:schema35.items,data:data15};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 > 599 || isNaN(data15)){
const err30 = {instancePath:instancePath+"/closeOn/statusesWithHint/" + i6,schemaPath:"#/$defs/statuses/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema35.items,data:data15};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
if(data15 < 100 || isNaN(data15)){
const err31 = {instancePath:instancePath+"/closeOn/statusesWithHint/" + i6,schemaPath:"#/$defs/statuses/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema35.items,data:data15};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
let i7 = data14.length;
let j3;
if(i7 > 1){
const indices3 = {};
for(;i7--;){
let item3 = data14[i7];
if(!(((typeof item3 == "number") && (!(item3 % 1) && !isNaN(item3))) && (isFinite(item3)))){
continue;
}
if(typeof indices3[item3] == "number"){
j3 = indices3[item3];
const err32 = {instancePath:instancePath+"/closeOn/statusesWithHint",schemaPath:"#/$defs/statuses/uniqueItems",keyword:"uniqueItems",params:{i: i7, j: j3},message:"must NOT have duplicate items (items ## "+j3+" and "+i7+" are identical)",schema:true,parentSchema:schema35,data:data14};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
break;
}
indices3[item3] = i7;
}
}
}
else {
const err33 = {instancePath:instancePath+"/closeOn/statusesWithHint",schemaPath:"#/$defs/statuses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema35.type,parentSchema:schema35,data:data14};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
}
else {
const err34 = {instancePath:instancePath+"/closeOn",schemaPath:"#/properties/closeOn/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema38.properties.closeOn.type,parentSchema:schema38.properties.closeOn,data:data11};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data.keys !== undefined){
let data16 = data.keys;
if(typeof data16 === "string"){
if(func1(data16) < 1){
const err35 = {instancePath:instancePath+"/keys",schemaPath:"#/properties/keys/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema38.properties.keys,data:data16};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
else {
const err36 = {instancePath:instancePath+"/keys",schemaPath:"#/properties/keys/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.keys.type,parentSchema:schema38.properties.keys,data:data16};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
else {
const err37 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema38.type,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const pattern4 = new RegExp("^[A-Za-z0-9_.-]+$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://w3id.org/switchyard/schemas/policy.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((((key0 === "$schema") || (key0 === "defaults")) || (key0 === "nodes")) || (key0 === "placements")) || (key0 === "run")) || (key0 === "classification")) || (key0 === "gates"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.$schema !== undefined){
let data0 = data.$schema;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.$schema.type,parentSchema:schema31.properties.$schema,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.defaults !== undefined){
if(!(validate21(data.defaults, {instancePath:instancePath+"/defaults",parentData:data,parentDataProperty:"defaults",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data.nodes !== undefined){
let data2 = data.nodes;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs7 = errors;
if(typeof key1 === "string"){
if(func1(key1) < 1){
const err2 = {instancePath:instancePath+"/nodes",schemaPath:"#/properties/nodes/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.nodes.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
var valid1 = _errs7 === errors;
if(!valid1){
const err3 = {instancePath:instancePath+"/nodes",schemaPath:"#/properties/nodes/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema31.properties.nodes.propertyNames,parentSchema:schema31.properties.nodes,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
for(const key2 in data2){
if(!(validate21(data2[key2], {instancePath:instancePath+"/nodes/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data2,parentDataProperty:key2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/nodes",schemaPath:"#/properties/nodes/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.nodes.type,parentSchema:schema31.properties.nodes,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.placements !== undefined){
let data4 = data.placements;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
for(const key3 in data4){
const _errs12 = errors;
if(typeof key3 === "string"){
if(func1(key3) < 1){
const err5 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.placements.propertyNames,data:key3,propertyName:key3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
var valid3 = _errs12 === errors;
if(!valid3){
const err6 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/propertyNames",keyword:"propertyNames",params:{propertyName: key3},message:"property name must be valid",schema:schema31.properties.placements.propertyNames,parentSchema:schema31.properties.placements,data:data4};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
for(const key4 in data4){
if(!(validate21(data4[key4], {instancePath:instancePath+"/placements/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data4,parentDataProperty:key4,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
else {
const err7 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.placements.type,parentSchema:schema31.properties.placements,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.run !== undefined){
let data6 = data.run;
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
for(const key5 in data6){
if(!(key5 === "deadlineMs")){
const err8 = {instancePath:instancePath+"/run",schemaPath:"#/properties/run/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema31.properties.run,data:data6};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data6.deadlineMs !== undefined){
let data7 = data6.deadlineMs;
if((!((typeof data7 == "number") && (isFinite(data7)))) && (data7 !== null)){
const err9 = {instancePath:instancePath+"/run/deadlineMs",schemaPath:"#/$defs/deadline/type",keyword:"type",params:{type: schema33.type},message:"must be number,null",schema:schema33.type,parentSchema:schema33,data:data7};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 <= 0 || isNaN(data7)){
const err10 = {instancePath:instancePath+"/run/deadlineMs",schemaPath:"#/$defs/deadline/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema33,data:data7};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
}
else {
const err11 = {instancePath:instancePath+"/run",schemaPath:"#/properties/run/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.run.type,parentSchema:schema31.properties.run,data:data6};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.classification !== undefined){
let data8 = data.classification;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
for(const key6 in data8){
if(!(((((((key6 === "retryableStatuses") || (key6 === "retryableStatusesWithHint")) || (key6 === "nonRetryableStatuses")) || (key6 === "retry5xx")) || (key6 === "retryableCodes")) || (key6 === "retryTimeouts")) || (key6 === "maxDepth"))){
const err12 = {instancePath:instancePath+"/classification",schemaPath:"#/properties/classification/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema31.properties.classification,data:data8};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data8.retryableStatuses !== undefined){
let data9 = data8.retryableStatuses;
if(Array.isArray(data9)){
const len0 = data9.length;
for(let i0=0; i0<len0; i0++){
let data10 = data9[i0];
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err13 = {instancePath:instancePath+"/classification/retryableStatuses/" + i0,schemaPath:"#/$defs/statuses/items/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.items.type,parentSchema:schema35.items,data:data10};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 > 599 || isNaN(data10)){
const err14 = {instancePath:instancePath+"/classification/retryableStatuses/" + i0,schemaPath:"#/$defs/statuses/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema35.items,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data10 < 100 || isNaN(data10)){
const err15 = {instancePath:instancePath+"/classification/retryableStatuses/" + i0,schemaPath:"#/$defs/statuses/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema35.items,data:data10};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
let i1 = data9.length;
let j0;
if(i1 > 1){
const indices0 = {};
for(;i1--;){
let item0 = data9[i1];
if(!(((typeof item0 == "number") && (!(item0 % 1) && !isNaN(item0))) && (isFinite(item0)))){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err16 = {instancePath:instancePath+"/classification/retryableStatuses",schemaPath:"#/$defs/statuses/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema35,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
break;
}
indices0[item0] = i1;
}
}
}
else {
const err17 = {instancePath:instancePath+"/classification/retryableStatuses",schemaPath:"#/$defs/statuses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema35.type,parentSchema:schema35,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data8.retryableStatusesWithHint !== undefined){
let data11 = data8.retryableStatusesWithHint;
if(Array.isArray(data11)){
const len1 = data11.length;
for(let i2=0; i2<len1; i2++){
let data12 = data11[i2];
if(!(((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12))) && (isFinite(data12)))){
const err18 = {instancePath:instancePath+"/classification/retryableStatusesWithHint/" + i2,schemaPath:"#/$defs/statuses/items/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.items.type,parentSchema:schema35.items,data:data12};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if((typeof data12 == "number") && (isFinite(data12))){
if(data12 > 599 || isNaN(data12)){
const err19 = {instancePath:instancePath+"/classification/retryableStatusesWithHint/" + i2,schemaPath:"#/$defs/statuses/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema35.items,data:data12};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data12 < 100 || isNaN(data12)){
const err20 = {instancePath:instancePath+"/classification/retryableStatusesWithHint/" + i2,schemaPath:"#/$defs/statuses/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema35.items,data:data12};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
let i3 = data11.length;
let j1;
if(i3 > 1){
const indices1 = {};
for(;i3--;){
let item1 = data11[i3];
if(!(((typeof item1 == "number") && (!(item1 % 1) && !isNaN(item1))) && (isFinite(item1)))){
continue;
}
if(typeof indices1[item1] == "number"){
j1 = indices1[item1];
const err21 = {instancePath:instancePath+"/classification/retryableStatusesWithHint",schemaPath:"#/$defs/statuses/uniqueItems",keyword:"uniqueItems",params:{i: i3, j: j1},message:"must NOT have duplicate items (items ## "+j1+" and "+i3+" are identical)",schema:true,parentSchema:schema35,data:data11};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
break;
}
indices1[item1] = i3;
}
}
}
else {
const err22 = {instancePath:instancePath+"/classification/retryableStatusesWithHint",schemaPath:"#/$defs/statuses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema35.type,parentSchema:schema35,data:data11};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data8.nonRetryableStatuses !== undefined){
let data13 = data8.nonRetryableStatuses;
if(Array.isArray(data13)){
const len2 = data13.length;
for(let i4=0; i4<len2; i4++){
let data14 = data13[i4];
if(!(((typeof data14 == "number") && (!(data14 % 1) && !isNaN(data14))) && (isFinite(data14)))){
const err23 = {instancePath:instancePath+"/classification/nonRetryableStatuses/" + i4,schemaPath:"#/$defs/statuses/items/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.items.type,parentSchema:schema35.items,data:data14};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
if((typeof data14 == "number") && (isFinite(data14))){
if(data14 > 599 || isNaN(data14)){
const err24 = {instancePath:instancePath+"/classification/nonRetryableStatuses/" + i4,schemaPath:"#/$defs/statuses/items/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema35.items,data:data14};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(data14 < 100 || isNaN(data14)){
const err25 = {instancePath:instancePath+"/classification/nonRetryableStatuses/" + i4,schemaPath:"#/$defs/statuses/items/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema35.items,data:data14};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
let i5 = data13.length;
let j2;
if(i5 > 1){
const indices2 = {};
for(;i5--;){
let item2 = data13[i5];
if(!(((typeof item2 == "number") && (!(item2 % 1) && !isNaN(item2))) && (isFinite(item2)))){
continue;
}
if(typeof indices2[item2] == "number"){
j2 = indices2[item2];
const err26 = {instancePath:instancePath+"/classification/nonRetryableStatuses",schemaPath:"#/$defs/statuses/uniqueItems",keyword:"uniqueItems",params:{i: i5, j: j2},message:"must NOT have duplicate items (items ## "+j2+" and "+i5+" are identical)",schema:true,parentSchema:schema35,data:data13};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
break;
}
indices2[item2] = i5;
}
}
}
else {
const err27 = {instancePath:instancePath+"/classification/nonRetryableStatuses",schemaPath:"#/$defs/statuses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema35.type,parentSchema:schema35,data:data13};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data8.retry5xx !== undefined){
let data15 = data8.retry5xx;
if(typeof data15 !== "boolean"){
const err28 = {instancePath:instancePath+"/classification/retry5xx",schemaPath:"#/properties/classification/properties/retry5xx/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.classification.properties.retry5xx.type,parentSchema:schema31.properties.classification.properties.retry5xx,data:data15};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data8.retryableCodes !== undefined){
let data16 = data8.retryableCodes;
if(Array.isArray(data16)){
const len3 = data16.length;
for(let i6=0; i6<len3; i6++){
let data17 = data16[i6];
if(typeof data17 === "string"){
if(func1(data17) < 1){
const err29 = {instancePath:instancePath+"/classification/retryableCodes/" + i6,schemaPath:"#/properties/classification/properties/retryableCodes/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.classification.properties.retryableCodes.items,data:data17};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
else {
const err30 = {instancePath:instancePath+"/classification/retryableCodes/" + i6,schemaPath:"#/properties/classification/properties/retryableCodes/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.classification.properties.retryableCodes.items.type,parentSchema:schema31.properties.classification.properties.retryableCodes.items,data:data17};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
let i7 = data16.length;
let j3;
if(i7 > 1){
const indices3 = {};
for(;i7--;){
let item3 = data16[i7];
if(typeof item3 !== "string"){
continue;
}
if(typeof indices3[item3] == "number"){
j3 = indices3[item3];
const err31 = {instancePath:instancePath+"/classification/retryableCodes",schemaPath:"#/properties/classification/properties/retryableCodes/uniqueItems",keyword:"uniqueItems",params:{i: i7, j: j3},message:"must NOT have duplicate items (items ## "+j3+" and "+i7+" are identical)",schema:true,parentSchema:schema31.properties.classification.properties.retryableCodes,data:data16};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
break;
}
indices3[item3] = i7;
}
}
}
else {
const err32 = {instancePath:instancePath+"/classification/retryableCodes",schemaPath:"#/properties/classification/properties/retryableCodes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.classification.properties.retryableCodes.type,parentSchema:schema31.properties.classification.properties.retryableCodes,data:data16};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data8.retryTimeouts !== undefined){
let data18 = data8.retryTimeouts;
if(typeof data18 !== "boolean"){
const err33 = {instancePath:instancePath+"/classification/retryTimeouts",schemaPath:"#/properties/classification/properties/retryTimeouts/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.classification.properties.retryTimeouts.type,parentSchema:schema31.properties.classification.properties.retryTimeouts,data:data18};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data8.maxDepth !== undefined){
let data19 = data8.maxDepth;
if(!(((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19))) && (isFinite(data19)))){
const err34 = {instancePath:instancePath+"/classification/maxDepth",schemaPath:"#/properties/classification/properties/maxDepth/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.classification.properties.maxDepth.type,parentSchema:schema31.properties.classification.properties.maxDepth,data:data19};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
if((typeof data19 == "number") && (isFinite(data19))){
if(data19 > 64 || isNaN(data19)){
const err35 = {instancePath:instancePath+"/classification/maxDepth",schemaPath:"#/properties/classification/properties/maxDepth/maximum",keyword:"maximum",params:{comparison: "<=", limit: 64},message:"must be <= 64",schema:64,parentSchema:schema31.properties.classification.properties.maxDepth,data:data19};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
if(data19 < 0 || isNaN(data19)){
const err36 = {instancePath:instancePath+"/classification/maxDepth",schemaPath:"#/properties/classification/properties/maxDepth/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.classification.properties.maxDepth,data:data19};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
}
else {
const err37 = {instancePath:instancePath+"/classification",schemaPath:"#/properties/classification/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.classification.type,parentSchema:schema31.properties.classification,data:data8};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data.gates !== undefined){
let data20 = data.gates;
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
for(const key7 in data20){
const _errs51 = errors;
if(typeof key7 === "string"){
if(func1(key7) > 64){
const err38 = {instancePath:instancePath+"/gates",schemaPath:"#/properties/gates/propertyNames/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema31.properties.gates.propertyNames,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
if(!pattern4.test(key7)){
const err39 = {instancePath:instancePath+"/gates",schemaPath:"#/properties/gates/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_.-]+$"},message:"must match pattern \""+"^[A-Za-z0-9_.-]+$"+"\"",schema:"^[A-Za-z0-9_.-]+$",parentSchema:schema31.properties.gates.propertyNames,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
var valid23 = _errs51 === errors;
if(!valid23){
const err40 = {instancePath:instancePath+"/gates",schemaPath:"#/properties/gates/propertyNames",keyword:"propertyNames",params:{propertyName: key7},message:"property name must be valid",schema:schema31.properties.gates.propertyNames,parentSchema:schema31.properties.gates,data:data20};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
for(const key8 in data20){
if(!(validate25(data20[key8], {instancePath:instancePath+"/gates/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data20,parentDataProperty:key8,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err41 = {instancePath:instancePath+"/gates",schemaPath:"#/properties/gates/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.gates.type,parentSchema:schema31.properties.gates,data:data20};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
else {
const err42 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
