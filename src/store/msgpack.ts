/**
 * msgpackr's plain JavaScript build, the one every ra3 binary runs. The package's main entry (its `node`
 * and `bun` exports) also tries to load the optional native add-on `msgpackr-extract`; in a compiled
 * binary that `require` is resolved from the path the bundler found the package at, on the machine that
 * built it — so a binary run inside this checkout loaded the checkout's add-on (a few milliseconds of
 * a cold run, and another decoder than users get), and a user's binary looked for a build machine's folder.
 * The `pack` entry is the same code without that attempt (under the `node` and `bun` conditions it is the
 * package's `index.js`; elsewhere `pack.js`, whose `Packr` unpacks too).
 */
export { Packr } from "msgpackr/pack";
