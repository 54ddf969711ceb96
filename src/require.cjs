// The package's entry for `require('switchyard')`. The package is ES modules; Node 20.19 and later
// `require()` an ES module as they import it, so this gives back the very modules `import` loads (one copy,
// not a CommonJS twin). A Node that cannot (before 20.19, or with --no-experimental-require-module) gets
// one line saying how to load the package instead.
'use strict';

const CANNOT_REQUIRE = new Set(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE']);

try {
  module.exports = require('./index.js');
} catch (error) {
  if (!CANNOT_REQUIRE.has(error?.code)) throw error;
  throw Object.assign(
    new Error(
      `switchyard is an ES module, which this Node (${process.version}) cannot require(): load it with ` +
        "`const { createDispatcher } = await import('switchyard')`, or use Node 20.19 or later",
      { cause: error },
    ),
    { code: error.code },
  );
}
