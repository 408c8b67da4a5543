// The vault passphrase for a start: from a file (--passphrase-file, first line; must not be readable
// by group or others) or asked on the terminal without echo (--passphrase; a line from stdin when
// stdin is not a terminal). Never from the command line or the environment, where other processes
// and crash reports can read it.
import { readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

export function passphraseFromFile(file: string): string {
  const st = statSync(file);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new Error(`${file} is readable by other users (mode ${(st.mode & 0o777).toString(8)}): chmod 600 it first`);
  }
  const line = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  if (line.length === 0) throw new Error(`${file} is empty: its first line is the vault passphrase`);
  return line;
}

export async function askPassphrase(prompt: string, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  const tty = (input as { isTTY?: boolean }).isTTY === true;
  const rl = createInterface({ input, output, terminal: tty });
  if (tty) {
    // echo the prompt only, never the typed characters
    const r = rl as unknown as { _writeToOutput: (s: string) => void };
    let prompted = false;
    r._writeToOutput = (s: string) => {
      if (!prompted) {
        output.write(s);
        prompted = true;
      }
    };
  }
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      rl.question(prompt, resolve);
      rl.once('close', () => reject(new Error('no passphrase was given (stdin closed)')));
    });
    if (tty) output.write('\n');
    return answer;
  } finally {
    rl.close();
  }
}
