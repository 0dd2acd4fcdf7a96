// One formatBytes for every command: the same snapshot size reads the same in `ra3 index`, `status`,
// `export`, setup and doctor.
import { expect, test } from "bun:test";
import { formatBytes } from "../../src/disk/size.ts";

test("decimal units, the precision of docs/performance.md", () => {
  expect([0, 999, 1000, 5120, 999_949, 1_000_000, 4_030_000, 3_984_588, 121_000_000, 1_100_000_000].map(formatBytes))
    .toEqual(["0 B", "999 B", "1.0 KB", "5.1 KB", "999.9 KB", "1.00 MB", "4.03 MB", "3.98 MB", "121.00 MB", "1.10 GB"]);
});
