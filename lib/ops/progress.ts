/** A one-line progress bar for a terminal: `[#########---------]  50%  500/1000`. */
export function progressBar(stream: NodeJS.WriteStream, width = 30) {
  let drawn = false;
  return {
    update(done: number, total: number) {
      const share = total === 0 ? 1 : done / total;
      const filled = Math.round(share * width);
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}%  ${done}/${total}`,
      );
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}
