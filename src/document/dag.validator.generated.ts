// @ts-nocheck
// Generated from schemas/dag.schema.json by scripts/generate-validators.ts (Ajv standalone code). Do not edit:
// run `node --import tsx scripts/generate-validators.ts` after changing the schema.
import { ucs2length } from './ucs2length.ts';
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://w3id.org/switchyard/schemas/dag.schema.json","title":"Switchyard DAG document","description":"The compact JSON-LD form of a Switchyard DAG, with the published context referenced by IRI.","type":"object","required":["@context","@id","@type","name","version","entrypoints","placements"],"additionalProperties":false,"properties":{"$schema":{"description":"The schema this document follows, for editors (a path or URL of dag.schema.json); not part of the DAG's graph, its model or its hash.","type":"string","maxLength":2048},"@context":{"const":"https://w3id.org/switchyard/context/v1"},"@id":{"$ref":"#/$defs/iri"},"@type":{"const":"Dag"},"name":{"type":"string","minLength":1,"maxLength":1000},"version":{"type":"string","minLength":1,"maxLength":200},"description":{"$ref":"#/$defs/longText"},"entrypoints":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/key"},"description":"Placement keys where items may start, in order: the first is the default."},"budgets":{"type":"array","items":{"$ref":"#/$defs/budget"}},"placements":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/placement"}}},"$defs":{"iri":{"type":"string","pattern":"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$","description":"An absolute IRI, e.g. urn:switchyard:dag:compose-validate (sy:x names https://w3id.org/switchyard/vocab#x; sy:// is not allowed).","maxLength":2048},"key":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_-]*$","description":"A placement key: a letter or underscore, then letters, digits, '_' or '-'.","maxLength":200},"name":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_.-]*$","maxLength":200,"description":"A budget or output name: a letter or underscore, then letters, digits, '_', '.' or '-'."},"pointer":{"type":"string","pattern":"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$","description":"A JSON pointer (RFC 6901) into the item's data; '' is the whole data. No segment may be __proto__, constructor or prototype.","maxLength":2048},"budget":{"type":"object","required":["name","max"],"additionalProperties":false,"properties":{"name":{"$ref":"#/$defs/name"},"max":{"type":"integer","minimum":0,"maximum":1000000},"description":{"$ref":"#/$defs/longText"}}},"route":{"type":"object","required":["output","to"],"additionalProperties":false,"properties":{"output":{"$ref":"#/$defs/name"},"to":{"$ref":"#/$defs/key"},"kind":{"enum":["next","retry","salvage"],"default":"next"},"budget":{"$ref":"#/$defs/name"},"exhausted":{"$ref":"#/$defs/key"},"resets":{"type":"array","items":{"$ref":"#/$defs/name"}},"label":{"$ref":"#/$defs/text"}}},"mapping":{"type":"object","required":["from","to"],"additionalProperties":false,"properties":{"from":{"$ref":"#/$defs/pointer"},"to":{"$ref":"#/$defs/pointer"}}},"routes":{"type":"array","items":{"$ref":"#/$defs/route"}},"placement":{"type":"object","required":["kind"],"oneOf":[{"$ref":"#/$defs/task"},{"$ref":"#/$defs/await"},{"$ref":"#/$defs/scatter"},{"$ref":"#/$defs/gather"},{"$ref":"#/$defs/embed"},{"$ref":"#/$defs/terminal"},{"$ref":"#/$defs/phase"}],"discriminator":{"propertyName":"kind"},"properties":{"kind":{"type":"string"}}},"task":{"type":"object","required":["key","kind","node"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"task"},"node":{"$ref":"#/$defs/iri"},"routes":{"$ref":"#/$defs/routes"}}},"await":{"type":"object","required":["key","kind","answers"],"additionalProperties":false,"description":"Parks an item until an outside answer names one of its answers (each an output, routed as usual) or the runtime policy's deadline for the placement passes (the output 'deadline', which must be routed).","properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"await"},"answers":{"type":"array","minItems":1,"maxItems":1000,"items":{"allOf":[{"$ref":"#/$defs/name"},{"not":{"const":"deadline"},"description":"'deadline' is the output the engine takes when an await's deadline passes; give the answer another name"}]},"description":"The outputs an answer may name, e.g. approved, rejected; not 'deadline', the output the engine takes when the deadline passes."},"into":{"$ref":"#/$defs/pointer","description":"Where an answer's data is written in the item's data; an await without it takes answers without data."},"routes":{"$ref":"#/$defs/routes"}}},"scatter":{"type":"object","required":["key","kind","items"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"scatter"},"items":{"$ref":"#/$defs/pointer"},"node":{"$ref":"#/$defs/iri"},"dag":{"$ref":"#/$defs/iri"},"routes":{"$ref":"#/$defs/routes"}},"oneOf":[{"required":["node"]},{"required":["dag"]}]},"gather":{"type":"object","required":["key","kind","into"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"gather"},"reducer":{"enum":["collect","partition","first","quorum"],"default":"collect"},"require":{"enum":["all","any","quorum"],"default":"all"},"quorum":{"type":"integer","minimum":1,"maximum":1000000},"into":{"$ref":"#/$defs/pointer"},"routes":{"$ref":"#/$defs/routes"}}},"embed":{"type":"object","required":["key","kind","dag"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"embed"},"dag":{"$ref":"#/$defs/iri"},"input":{"type":"array","items":{"$ref":"#/$defs/mapping"}},"result":{"type":"array","items":{"$ref":"#/$defs/mapping"}},"routes":{"$ref":"#/$defs/routes"}}},"terminal":{"type":"object","required":["key","kind","outcome"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"terminal"},"outcome":{"enum":["completed","failed"]}}},"phase":{"type":"object","required":["key","kind","when","node"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"phase"},"when":{"enum":["pre","post"]},"node":{"$ref":"#/$defs/iri"}}},"text":{"type":"string","maxLength":1000},"longText":{"type":"string","maxLength":20000}}};
const schema32 = {"type":"string","pattern":"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$","description":"An absolute IRI, e.g. urn:switchyard:dag:compose-validate (sy:x names https://w3id.org/switchyard/vocab#x; sy:// is not allowed).","maxLength":2048};
const schema33 = {"type":"string","maxLength":20000};
const schema34 = {"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_-]*$","description":"A placement key: a letter or underscore, then letters, digits, '_' or '-'.","maxLength":200};
const func1 = Object.prototype.hasOwnProperty;
const func2 = ucs2length;
const pattern4 = new RegExp("^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$", "u");
const pattern5 = new RegExp("^[A-Za-z_][A-Za-z0-9_-]*$", "u");
const schema35 = {"type":"object","required":["name","max"],"additionalProperties":false,"properties":{"name":{"$ref":"#/$defs/name"},"max":{"type":"integer","minimum":0,"maximum":1000000},"description":{"$ref":"#/$defs/longText"}}};
const schema36 = {"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_.-]*$","maxLength":200,"description":"A budget or output name: a letter or underscore, then letters, digits, '_', '.' or '-'."};
const pattern6 = new RegExp("^[A-Za-z_][A-Za-z0-9_.-]*$", "u");

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
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema35.required,parentSchema:schema35,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.max === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "max"},message:"must have required property '"+"max"+"'",schema:schema35.required,parentSchema:schema35,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "name") || (key0 === "max")) || (key0 === "description"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema35,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err3 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!pattern6.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_.-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_.-]*$",parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.max !== undefined){
let data1 = data.max;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err6 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema35.properties.max.type,parentSchema:schema35.properties.max,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 > 1000000 || isNaN(data1)){
const err7 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000",schema:1000000,parentSchema:schema35.properties.max,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data1 < 0 || isNaN(data1)){
const err8 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema35.properties.max,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
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
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema35.type,parentSchema:schema35,data};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema38 = {"type":"object","required":["kind"],"oneOf":[{"$ref":"#/$defs/task"},{"$ref":"#/$defs/await"},{"$ref":"#/$defs/scatter"},{"$ref":"#/$defs/gather"},{"$ref":"#/$defs/embed"},{"$ref":"#/$defs/terminal"},{"$ref":"#/$defs/phase"}],"discriminator":{"propertyName":"kind"},"properties":{"kind":{"type":"string"}}};
const schema39 = {"type":"object","required":["key","kind","node"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"task"},"node":{"$ref":"#/$defs/iri"},"routes":{"$ref":"#/$defs/routes"}}};
const schema41 = {"type":"string","maxLength":1000};
const schema44 = {"type":"array","items":{"$ref":"#/$defs/route"}};
const schema45 = {"type":"object","required":["output","to"],"additionalProperties":false,"properties":{"output":{"$ref":"#/$defs/name"},"to":{"$ref":"#/$defs/key"},"kind":{"enum":["next","retry","salvage"],"default":"next"},"budget":{"$ref":"#/$defs/name"},"exhausted":{"$ref":"#/$defs/key"},"resets":{"type":"array","items":{"$ref":"#/$defs/name"}},"label":{"$ref":"#/$defs/text"}}};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate26.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.output === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "output"},message:"must have required property '"+"output"+"'",schema:schema45.required,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.to === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "to"},message:"must have required property '"+"to"+"'",schema:schema45.required,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "output") || (key0 === "to")) || (key0 === "kind")) || (key0 === "budget")) || (key0 === "exhausted")) || (key0 === "resets")) || (key0 === "label"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.output !== undefined){
let data0 = data.output;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err3 = {instancePath:instancePath+"/output",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!pattern6.test(data0)){
const err4 = {instancePath:instancePath+"/output",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_.-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_.-]*$",parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/output",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.to !== undefined){
let data1 = data.to;
if(typeof data1 === "string"){
if(func2(data1) > 200){
const err6 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(!pattern5.test(data1)){
const err7 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data1};
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
const err8 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.kind !== undefined){
let data2 = data.kind;
if(!(((data2 === "next") || (data2 === "retry")) || (data2 === "salvage"))){
const err9 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues: schema45.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema45.properties.kind.enum,parentSchema:schema45.properties.kind,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.budget !== undefined){
let data3 = data.budget;
if(typeof data3 === "string"){
if(func2(data3) > 200){
const err10 = {instancePath:instancePath+"/budget",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(!pattern6.test(data3)){
const err11 = {instancePath:instancePath+"/budget",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_.-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_.-]*$",parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/budget",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.exhausted !== undefined){
let data4 = data.exhausted;
if(typeof data4 === "string"){
if(func2(data4) > 200){
const err13 = {instancePath:instancePath+"/exhausted",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data4};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(!pattern5.test(data4)){
const err14 = {instancePath:instancePath+"/exhausted",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data4};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/exhausted",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.resets !== undefined){
let data5 = data.resets;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 === "string"){
if(func2(data6) > 200){
const err16 = {instancePath:instancePath+"/resets/" + i0,schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema36,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(!pattern6.test(data6)){
const err17 = {instancePath:instancePath+"/resets/" + i0,schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_.-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_.-]*$",parentSchema:schema36,data:data6};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/resets/" + i0,schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data6};
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
else {
const err19 = {instancePath:instancePath+"/resets",schemaPath:"#/properties/resets/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.properties.resets.type,parentSchema:schema45.properties.resets,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.label !== undefined){
let data7 = data.label;
if(typeof data7 === "string"){
if(func2(data7) > 1000){
const err20 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data7};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data7};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema45.type,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
validate26.errors = vErrors;
return errors === 0;
}
validate26.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


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
if(Array.isArray(data)){
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
if(!(validate26(data[i0], {instancePath:instancePath+"/" + i0,parentData:data,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate26.errors : vErrors.concat(validate26.errors);
errors = vErrors.length;
}
}
}
else {
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema44.type,parentSchema:schema44,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate24.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema39.required,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema39.required,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.node === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "node"},message:"must have required property '"+"node"+"'",schema:schema39.required,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "node")) || (key0 === "routes"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err4 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
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
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err7 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
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
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("task" !== data3){
const err11 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "task"},message:"must be equal to constant",schema:"task",parentSchema:schema39.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.node !== undefined){
let data4 = data.node;
if(typeof data4 === "string"){
if(func2(data4) > 2048){
const err12 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!pattern4.test(data4)){
const err13 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data4};
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
const err14 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.routes !== undefined){
if(!(validate25(data.routes, {instancePath:instancePath+"/routes",parentData:data,parentDataProperty:"routes",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.type,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}
validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema52 = {"type":"object","required":["key","kind","answers"],"additionalProperties":false,"description":"Parks an item until an outside answer names one of its answers (each an output, routed as usual) or the runtime policy's deadline for the placement passes (the output 'deadline', which must be routed).","properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"await"},"answers":{"type":"array","minItems":1,"maxItems":1000,"items":{"allOf":[{"$ref":"#/$defs/name"},{"not":{"const":"deadline"},"description":"'deadline' is the output the engine takes when an await's deadline passes; give the answer another name"}]},"description":"The outputs an answer may name, e.g. approved, rejected; not 'deadline', the output the engine takes when the deadline passes."},"into":{"$ref":"#/$defs/pointer","description":"Where an answer's data is written in the item's data; an await without it takes answers without data."},"routes":{"$ref":"#/$defs/routes"}}};
const schema57 = {"type":"string","pattern":"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$","description":"A JSON pointer (RFC 6901) into the item's data; '' is the whole data. No segment may be __proto__, constructor or prototype.","maxLength":2048};
const pattern16 = new RegExp("^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$", "u");

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema52.required,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema52.required,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.answers === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "answers"},message:"must have required property '"+"answers"+"'",schema:schema52.required,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "answers")) || (key0 === "into")) || (key0 === "routes"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err4 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
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
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err7 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
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
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("await" !== data3){
const err11 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "await"},message:"must be equal to constant",schema:"await",parentSchema:schema52.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.answers !== undefined){
let data4 = data.answers;
if(Array.isArray(data4)){
if(data4.length > 1000){
const err12 = {instancePath:instancePath+"/answers",schemaPath:"#/properties/answers/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items",schema:1000,parentSchema:schema52.properties.answers,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data4.length < 1){
const err13 = {instancePath:instancePath+"/answers",schemaPath:"#/properties/answers/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema52.properties.answers,data:data4};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(typeof data5 === "string"){
if(func2(data5) > 200){
const err14 = {instancePath:instancePath+"/answers/" + i0,schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema36,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern6.test(data5)){
const err15 = {instancePath:instancePath+"/answers/" + i0,schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_.-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_.-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_.-]*$",parentSchema:schema36,data:data5};
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
const err16 = {instancePath:instancePath+"/answers/" + i0,schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data5};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
const _errs19 = errors;
const _errs20 = errors;
if("deadline" !== data5){
const err17 = {};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var valid8 = _errs20 === errors;
if(valid8){
const err18 = {instancePath:instancePath+"/answers/" + i0,schemaPath:"#/properties/answers/items/allOf/1/not",keyword:"not",params:{},message:"must NOT be valid",schema:schema52.properties.answers.items.allOf[1].not,parentSchema:schema52.properties.answers.items.allOf[1],data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
else {
errors = _errs19;
if(vErrors !== null){
if(_errs19){
vErrors.length = _errs19;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err19 = {instancePath:instancePath+"/answers",schemaPath:"#/properties/answers/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema52.properties.answers.type,parentSchema:schema52.properties.answers,data:data4};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.into !== undefined){
let data6 = data.into;
if(typeof data6 === "string"){
if(func2(data6) > 2048){
const err20 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema57,data:data6};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!pattern16.test(data6)){
const err21 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/pattern",keyword:"pattern",params:{pattern: "^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"},message:"must match pattern \""+"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"+"\"",schema:"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$",parentSchema:schema57,data:data6};
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
const err22 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.routes !== undefined){
if(!(validate25(data.routes, {instancePath:instancePath+"/routes",parentData:data,parentDataProperty:"routes",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err23 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema52.type,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema58 = {"type":"object","required":["key","kind","items"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"scatter"},"items":{"$ref":"#/$defs/pointer"},"node":{"$ref":"#/$defs/iri"},"dag":{"$ref":"#/$defs/iri"},"routes":{"$ref":"#/$defs/routes"}},"oneOf":[{"required":["node"]},{"required":["dag"]}]};

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs1 = errors;
let valid0 = false;
let passing0 = null;
const _errs2 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.node === undefined){
const err0 = {instancePath,schemaPath:"#/oneOf/0/required",keyword:"required",params:{missingProperty: "node"},message:"must have required property '"+"node"+"'",schema:schema58.oneOf[0].required,parentSchema:schema58.oneOf[0],data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var _valid0 = _errs2 === errors;
if(_valid0){
valid0 = true;
passing0 = 0;
}
const _errs3 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.dag === undefined){
const err1 = {instancePath,schemaPath:"#/oneOf/1/required",keyword:"required",params:{missingProperty: "dag"},message:"must have required property '"+"dag"+"'",schema:schema58.oneOf[1].required,parentSchema:schema58.oneOf[1],data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
var _valid0 = _errs3 === errors;
if(_valid0 && valid0){
valid0 = false;
passing0 = [passing0, 1];
}
else {
if(_valid0){
valid0 = true;
passing0 = 1;
}
}
if(!valid0){
const err2 = {instancePath,schemaPath:"#/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf",schema:schema58.oneOf,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
else {
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema58.required,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.kind === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema58.required,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.items === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "items"},message:"must have required property '"+"items"+"'",schema:schema58.required,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "items")) || (key0 === "node")) || (key0 === "dag")) || (key0 === "routes"))){
const err6 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err7 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!pattern5.test(data0)){
const err8 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err10 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err12 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("scatter" !== data3){
const err14 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "scatter"},message:"must be equal to constant",schema:"scatter",parentSchema:schema58.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.items !== undefined){
let data4 = data.items;
if(typeof data4 === "string"){
if(func2(data4) > 2048){
const err15 = {instancePath:instancePath+"/items",schemaPath:"#/$defs/pointer/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema57,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!pattern16.test(data4)){
const err16 = {instancePath:instancePath+"/items",schemaPath:"#/$defs/pointer/pattern",keyword:"pattern",params:{pattern: "^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"},message:"must match pattern \""+"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"+"\"",schema:"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$",parentSchema:schema57,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/items",schemaPath:"#/$defs/pointer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.node !== undefined){
let data5 = data.node;
if(typeof data5 === "string"){
if(func2(data5) > 2048){
const err18 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(!pattern4.test(data5)){
const err19 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.dag !== undefined){
let data6 = data.dag;
if(typeof data6 === "string"){
if(func2(data6) > 2048){
const err21 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(!pattern4.test(data6)){
const err22 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.routes !== undefined){
if(!(validate25(data.routes, {instancePath:instancePath+"/routes",parentData:data,parentDataProperty:"routes",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema58.type,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema65 = {"type":"object","required":["key","kind","into"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"gather"},"reducer":{"enum":["collect","partition","first","quorum"],"default":"collect"},"require":{"enum":["all","any","quorum"],"default":"all"},"quorum":{"type":"integer","minimum":1,"maximum":1000000},"into":{"$ref":"#/$defs/pointer"},"routes":{"$ref":"#/$defs/routes"}}};

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate33.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema65.required,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema65.required,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.into === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "into"},message:"must have required property '"+"into"+"'",schema:schema65.required,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema65.properties, key0))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err4 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
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
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err7 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
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
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("gather" !== data3){
const err11 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "gather"},message:"must be equal to constant",schema:"gather",parentSchema:schema65.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.reducer !== undefined){
let data4 = data.reducer;
if(!((((data4 === "collect") || (data4 === "partition")) || (data4 === "first")) || (data4 === "quorum"))){
const err12 = {instancePath:instancePath+"/reducer",schemaPath:"#/properties/reducer/enum",keyword:"enum",params:{allowedValues: schema65.properties.reducer.enum},message:"must be equal to one of the allowed values",schema:schema65.properties.reducer.enum,parentSchema:schema65.properties.reducer,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.require !== undefined){
let data5 = data.require;
if(!(((data5 === "all") || (data5 === "any")) || (data5 === "quorum"))){
const err13 = {instancePath:instancePath+"/require",schemaPath:"#/properties/require/enum",keyword:"enum",params:{allowedValues: schema65.properties.require.enum},message:"must be equal to one of the allowed values",schema:schema65.properties.require.enum,parentSchema:schema65.properties.require,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.quorum !== undefined){
let data6 = data.quorum;
if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){
const err14 = {instancePath:instancePath+"/quorum",schemaPath:"#/properties/quorum/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema65.properties.quorum.type,parentSchema:schema65.properties.quorum,data:data6};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 > 1000000 || isNaN(data6)){
const err15 = {instancePath:instancePath+"/quorum",schemaPath:"#/properties/quorum/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000",schema:1000000,parentSchema:schema65.properties.quorum,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(data6 < 1 || isNaN(data6)){
const err16 = {instancePath:instancePath+"/quorum",schemaPath:"#/properties/quorum/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema65.properties.quorum,data:data6};
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
if(data.into !== undefined){
let data7 = data.into;
if(typeof data7 === "string"){
if(func2(data7) > 2048){
const err17 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema57,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(!pattern16.test(data7)){
const err18 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/pattern",keyword:"pattern",params:{pattern: "^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"},message:"must match pattern \""+"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"+"\"",schema:"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$",parentSchema:schema57,data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/into",schemaPath:"#/$defs/pointer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data7};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.routes !== undefined){
if(!(validate25(data.routes, {instancePath:instancePath+"/routes",parentData:data,parentDataProperty:"routes",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema65.type,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate33.errors = vErrors;
return errors === 0;
}
validate33.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema70 = {"type":"object","required":["key","kind","dag"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"embed"},"dag":{"$ref":"#/$defs/iri"},"input":{"type":"array","items":{"$ref":"#/$defs/mapping"}},"result":{"type":"array","items":{"$ref":"#/$defs/mapping"}},"routes":{"$ref":"#/$defs/routes"}}};
const schema75 = {"type":"object","required":["from","to"],"additionalProperties":false,"properties":{"from":{"$ref":"#/$defs/pointer"},"to":{"$ref":"#/$defs/pointer"}}};

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.from === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "from"},message:"must have required property '"+"from"+"'",schema:schema75.required,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.to === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "to"},message:"must have required property '"+"to"+"'",schema:schema75.required,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "from") || (key0 === "to"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.from !== undefined){
let data0 = data.from;
if(typeof data0 === "string"){
if(func2(data0) > 2048){
const err3 = {instancePath:instancePath+"/from",schemaPath:"#/$defs/pointer/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema57,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!pattern16.test(data0)){
const err4 = {instancePath:instancePath+"/from",schemaPath:"#/$defs/pointer/pattern",keyword:"pattern",params:{pattern: "^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"},message:"must match pattern \""+"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"+"\"",schema:"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$",parentSchema:schema57,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/from",schemaPath:"#/$defs/pointer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.to !== undefined){
let data1 = data.to;
if(typeof data1 === "string"){
if(func2(data1) > 2048){
const err6 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/pointer/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema57,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(!pattern16.test(data1)){
const err7 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/pointer/pattern",keyword:"pattern",params:{pattern: "^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"},message:"must match pattern \""+"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$"+"\"",schema:"^(/(?!(?:__proto__|constructor|prototype)(?:/|$))([^~/]|~[01])*)*$",parentSchema:schema57,data:data1};
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
const err8 = {instancePath:instancePath+"/to",schemaPath:"#/$defs/pointer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema75.type,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.dag === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "dag"},message:"must have required property '"+"dag"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "dag")) || (key0 === "input")) || (key0 === "result")) || (key0 === "routes"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err4 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
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
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err7 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
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
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("embed" !== data3){
const err11 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "embed"},message:"must be equal to constant",schema:"embed",parentSchema:schema70.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.dag !== undefined){
let data4 = data.dag;
if(typeof data4 === "string"){
if(func2(data4) > 2048){
const err12 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!pattern4.test(data4)){
const err13 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data4};
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
const err14 = {instancePath:instancePath+"/dag",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.input !== undefined){
let data5 = data.input;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
if(!(validate36(data5[i0], {instancePath:instancePath+"/input/" + i0,parentData:data5,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate36.errors : vErrors.concat(validate36.errors);
errors = vErrors.length;
}
}
}
else {
const err15 = {instancePath:instancePath+"/input",schemaPath:"#/properties/input/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema70.properties.input.type,parentSchema:schema70.properties.input,data:data5};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.result !== undefined){
let data7 = data.result;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
if(!(validate36(data7[i1], {instancePath:instancePath+"/result/" + i1,parentData:data7,parentDataProperty:i1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate36.errors : vErrors.concat(validate36.errors);
errors = vErrors.length;
}
}
}
else {
const err16 = {instancePath:instancePath+"/result",schemaPath:"#/properties/result/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema70.properties.result.type,parentSchema:schema70.properties.result,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.routes !== undefined){
if(!(validate25(data.routes, {instancePath:instancePath+"/routes",parentData:data,parentDataProperty:"routes",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema70.type,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema78 = {"type":"object","required":["key","kind","outcome"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"terminal"},"outcome":{"enum":["completed","failed"]}}};

function validate40(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate40.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema78.required,parentSchema:schema78,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema78.required,parentSchema:schema78,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.outcome === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "outcome"},message:"must have required property '"+"outcome"+"'",schema:schema78.required,parentSchema:schema78,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "outcome"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema78,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err4 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
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
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err7 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
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
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
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
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("terminal" !== data3){
const err11 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "terminal"},message:"must be equal to constant",schema:"terminal",parentSchema:schema78.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.outcome !== undefined){
let data4 = data.outcome;
if(!((data4 === "completed") || (data4 === "failed"))){
const err12 = {instancePath:instancePath+"/outcome",schemaPath:"#/properties/outcome/enum",keyword:"enum",params:{allowedValues: schema78.properties.outcome.enum},message:"must be equal to one of the allowed values",schema:schema78.properties.outcome.enum,parentSchema:schema78.properties.outcome,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema78.type,parentSchema:schema78,data};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
validate40.errors = vErrors;
return errors === 0;
}
validate40.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema82 = {"type":"object","required":["key","kind","when","node"],"additionalProperties":false,"properties":{"key":{"$ref":"#/$defs/key"},"label":{"$ref":"#/$defs/text"},"description":{"$ref":"#/$defs/longText"},"kind":{"const":"phase"},"when":{"enum":["pre","post"]},"node":{"$ref":"#/$defs/iri"}}};

function validate41(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate41.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.key === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema82.required,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema82.required,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.when === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "when"},message:"must have required property '"+"when"+"'",schema:schema82.required,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.node === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "node"},message:"must have required property '"+"node"+"'",schema:schema82.required,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "key") || (key0 === "label")) || (key0 === "description")) || (key0 === "kind")) || (key0 === "when")) || (key0 === "node"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.key !== undefined){
let data0 = data.key;
if(typeof data0 === "string"){
if(func2(data0) > 200){
const err5 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!pattern5.test(data0)){
const err6 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/key",schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.label !== undefined){
let data1 = data.label;
if(typeof data1 === "string"){
if(func2(data1) > 1000){
const err8 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/label",schemaPath:"#/$defs/text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.type,parentSchema:schema41,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) > 20000){
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.kind !== undefined){
let data3 = data.kind;
if("phase" !== data3){
const err12 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "phase"},message:"must be equal to constant",schema:"phase",parentSchema:schema82.properties.kind,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.when !== undefined){
let data4 = data.when;
if(!((data4 === "pre") || (data4 === "post"))){
const err13 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/enum",keyword:"enum",params:{allowedValues: schema82.properties.when.enum},message:"must be equal to one of the allowed values",schema:schema82.properties.when.enum,parentSchema:schema82.properties.when,data:data4};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.node !== undefined){
let data5 = data.node;
if(typeof data5 === "string"){
if(func2(data5) > 2048){
const err14 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern4.test(data5)){
const err15 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data5};
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
const err16 = {instancePath:instancePath+"/node",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data5};
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
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema82.type,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate41.errors = vErrors;
return errors === 0;
}
validate41.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate23.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.kind === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema38.required,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind !== undefined){
let data0 = data.kind;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.kind.type,parentSchema:schema38.properties.kind,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
const tag0 = data.kind;
if(typeof tag0 == "string"){
if(tag0 === "task"){
if(!(validate24(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
var props0 = true;
}
else if(tag0 === "await"){
if(!(validate29(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "scatter"){
if(!(validate31(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate31.errors : vErrors.concat(validate31.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "gather"){
if(!(validate33(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate33.errors : vErrors.concat(validate33.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "embed"){
if(!(validate35(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate35.errors : vErrors.concat(validate35.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "terminal"){
if(!(validate40(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate40.errors : vErrors.concat(validate40.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "phase"){
if(!(validate41(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate41.errors : vErrors.concat(validate41.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else {
const err2 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "kind", tagValue: tag0},message:"value of tag \"kind\" must be in oneOf",schema:schema38.discriminator,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "kind", tagValue: tag0},message:"tag \"kind\" must be string",schema:schema38.discriminator,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema38.type,parentSchema:schema38,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate23.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate23.evaluated = {"dynamicProps":true,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://w3id.org/switchyard/schemas/dag.schema.json" */;
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
if(data["@context"] === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "@context"},message:"must have required property '"+"@context"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data["@id"] === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "@id"},message:"must have required property '"+"@id"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data["@type"] === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "@type"},message:"must have required property '"+"@type"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.name === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.version === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.entrypoints === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "entrypoints"},message:"must have required property '"+"entrypoints"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.placements === undefined){
const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "placements"},message:"must have required property '"+"placements"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema31.properties, key0))){
const err7 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.$schema !== undefined){
let data0 = data.$schema;
if(typeof data0 === "string"){
if(func2(data0) > 2048){
const err8 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema31.properties.$schema,data:data0};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.$schema.type,parentSchema:schema31.properties.$schema,data:data0};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data["@context"] !== undefined){
let data1 = data["@context"];
if("https://w3id.org/switchyard/context/v1" !== data1){
const err10 = {instancePath:instancePath+"/@context",schemaPath:"#/properties/%40context/const",keyword:"const",params:{allowedValue: "https://w3id.org/switchyard/context/v1"},message:"must be equal to constant",schema:"https://w3id.org/switchyard/context/v1",parentSchema:schema31.properties["@context"],data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data["@id"] !== undefined){
let data2 = data["@id"];
if(typeof data2 === "string"){
if(func2(data2) > 2048){
const err11 = {instancePath:instancePath+"/@id",schemaPath:"#/$defs/iri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters",schema:2048,parentSchema:schema32,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!pattern4.test(data2)){
const err12 = {instancePath:instancePath+"/@id",schemaPath:"#/$defs/iri/pattern",keyword:"pattern",params:{pattern: "^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"},message:"must match pattern \""+"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$"+"\"",schema:"^(?!sy://)[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|\\\\^`]+$",parentSchema:schema32,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/@id",schemaPath:"#/$defs/iri/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data["@type"] !== undefined){
let data3 = data["@type"];
if("Dag" !== data3){
const err14 = {instancePath:instancePath+"/@type",schemaPath:"#/properties/%40type/const",keyword:"const",params:{allowedValue: "Dag"},message:"must be equal to constant",schema:"Dag",parentSchema:schema31.properties["@type"],data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.name !== undefined){
let data4 = data.name;
if(typeof data4 === "string"){
if(func2(data4) > 1000){
const err15 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/maxLength",keyword:"maxLength",params:{limit: 1000},message:"must NOT have more than 1000 characters",schema:1000,parentSchema:schema31.properties.name,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(func2(data4) < 1){
const err16 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.name,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.name.type,parentSchema:schema31.properties.name,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.version !== undefined){
let data5 = data.version;
if(typeof data5 === "string"){
if(func2(data5) > 200){
const err18 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema31.properties.version,data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(func2(data5) < 1){
const err19 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.version,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.version.type,parentSchema:schema31.properties.version,data:data5};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.description !== undefined){
let data6 = data.description;
if(typeof data6 === "string"){
if(func2(data6) > 20000){
const err21 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/maxLength",keyword:"maxLength",params:{limit: 20000},message:"must NOT have more than 20000 characters",schema:20000,parentSchema:schema33,data:data6};
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
const err22 = {instancePath:instancePath+"/description",schemaPath:"#/$defs/longText/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.entrypoints !== undefined){
let data7 = data.entrypoints;
if(Array.isArray(data7)){
if(data7.length < 1){
const err23 = {instancePath:instancePath+"/entrypoints",schemaPath:"#/properties/entrypoints/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema31.properties.entrypoints,data:data7};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
const len0 = data7.length;
for(let i0=0; i0<len0; i0++){
let data8 = data7[i0];
if(typeof data8 === "string"){
if(func2(data8) > 200){
const err24 = {instancePath:instancePath+"/entrypoints/" + i0,schemaPath:"#/$defs/key/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema34,data:data8};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(!pattern5.test(data8)){
const err25 = {instancePath:instancePath+"/entrypoints/" + i0,schemaPath:"#/$defs/key/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_-]*$",parentSchema:schema34,data:data8};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
else {
const err26 = {instancePath:instancePath+"/entrypoints/" + i0,schemaPath:"#/$defs/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.type,parentSchema:schema34,data:data8};
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
else {
const err27 = {instancePath:instancePath+"/entrypoints",schemaPath:"#/properties/entrypoints/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.entrypoints.type,parentSchema:schema31.properties.entrypoints,data:data7};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.budgets !== undefined){
let data9 = data.budgets;
if(Array.isArray(data9)){
const len1 = data9.length;
for(let i1=0; i1<len1; i1++){
if(!(validate21(data9[i1], {instancePath:instancePath+"/budgets/" + i1,parentData:data9,parentDataProperty:i1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
else {
const err28 = {instancePath:instancePath+"/budgets",schemaPath:"#/properties/budgets/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.budgets.type,parentSchema:schema31.properties.budgets,data:data9};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.placements !== undefined){
let data11 = data.placements;
if(Array.isArray(data11)){
if(data11.length < 1){
const err29 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema31.properties.placements,data:data11};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
const len2 = data11.length;
for(let i2=0; i2<len2; i2++){
if(!(validate23(data11[i2], {instancePath:instancePath+"/placements/" + i2,parentData:data11,parentDataProperty:i2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
}
}
else {
const err30 = {instancePath:instancePath+"/placements",schemaPath:"#/properties/placements/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.placements.type,parentSchema:schema31.properties.placements,data:data11};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
