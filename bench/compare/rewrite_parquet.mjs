// Rewrites a Parquet file with another writer and row-group size: arrow-rs (the npm package
// parquet-wasm), SNAPPY pages, ROWS rows per group, as the `datasets` library writes audio
// (100 rows a group). An independent writer, so aeval's reader is measured on files DuckDB did
// not write. Usage: node rewrite_parquet.mjs IN OUT ROWS (parquet-wasm installed beside it).
import { readFileSync, writeFileSync } from "node:fs";
import { Compression, ParquetFile, WriterPropertiesBuilder, readParquet, writeParquet } from "parquet-wasm/node";

const [input, output, rows] = process.argv.slice(2);
if (!input || !output || !(Number(rows) > 0)) {
  console.error("usage: node rewrite_parquet.mjs IN OUT ROWS");
  process.exit(2);
}
const table = readParquet(new Uint8Array(readFileSync(input)));
const properties = new WriterPropertiesBuilder().setMaxRowGroupSize(Number(rows)).setCompression(Compression.SNAPPY).build();
writeFileSync(output, writeParquet(table, properties));
const written = await ParquetFile.fromFile(new Blob([readFileSync(output)]));
const groups = written.metadata().rowGroups().map((g) => g.numRows());
console.log(`${output}: ${groups.reduce((a, b) => a + b, 0)} rows in ${groups.length} row groups (largest ${Math.max(...groups)})`);
