/**
 * Splits a text stream into lines without ever holding more than one partial line: chunks can end
 * anywhere (mid-line, mid-CRLF), and the same input gives the same lines however it is chunked.
 */

export interface Line {
  /** 1-based line number in the file. */
  no: number;
  text: string;
  /** False only for a last line that had no terminating newline. */
  terminated: boolean;
}

export class LineSplitter {
  private partial = '';
  private lineNo = 0;

  /** Feeds a chunk; returns the lines it completed. */
  push(chunk: string): Line[] {
    const out: Line[] = [];
    let start = 0;
    let nl = chunk.indexOf('\n', start);
    while (nl !== -1) {
      let text = this.partial.length > 0 ? this.partial + chunk.slice(start, nl) : chunk.slice(start, nl);
      this.partial = '';
      if (text.endsWith('\r')) text = text.slice(0, -1);
      out.push({ no: ++this.lineNo, text, terminated: true });
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) this.partial += chunk.slice(start);
    return out;
  }

  /** Takes the unterminated remainder without ending the stream (the caller reads raw text from now on). */
  takePartial(): string {
    const partial = this.partial;
    this.partial = '';
    return partial;
  }

  /** Ends the stream; returns the unterminated last line, if any. */
  end(): Line[] {
    if (this.partial.length === 0) return [];
    let text = this.partial;
    this.partial = '';
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return [{ no: ++this.lineNo, text, terminated: false }];
  }
}
