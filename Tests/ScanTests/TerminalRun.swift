import Foundation

extension ScanBinary {
    /// Which of `scan`'s standard streams sit on the pseudo-terminal.
    struct TerminalStreams: OptionSet {
        let rawValue: Int
        static let input = TerminalStreams(rawValue: 1), output = TerminalStreams(rawValue: 2), error = TerminalStreams(rawValue: 4)
    }

    /// Runs `scan` with `streams` on one pseudo-terminal `columns` wide, `answer` typed at it and
    /// `unset` variables removed. The run's `stdout` is what the terminal showed (CR LF read as
    /// LF when `plainLines`); a standard output off the terminal is discarded, a standard error
    /// off it is the run's `stderr`.
    func onTerminal(_ arguments: [String], streams: TerminalStreams, columns: Int = 80, answer: String = "",
                    unset: [String] = [], environment: [String: String] = [:], plainLines: Bool = false,
                    timeout: TimeInterval = 60) throws -> Run {
        let options: [String: Any] = [
            "in": streams.contains(.input), "out": streams.contains(.output), "err": streams.contains(.error),
            "cols": columns, "answer": answer, "unset": unset, "plain": plainLines,
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: options), as: UTF8.self)
        return try run(arguments, environment: environment, timeout: timeout,
                       wrapper: ["/usr/bin/python3", "-c", Self.terminalRunner, json])
    }

    private static let terminalRunner = """
        import json, os, struct, fcntl, termios, subprocess, sys
        o = json.loads(sys.argv[1])
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, o['cols'], 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in o['unset']}
        p = subprocess.Popen(sys.argv[2:], env=env,
                             stdin=slave if o['in'] else subprocess.DEVNULL,
                             stdout=slave if o['out'] else subprocess.DEVNULL,
                             stderr=slave if o['err'] else None)
        os.close(slave)
        if o['answer']: os.write(master, o['answer'].encode())
        out = b''
        while True:
            try: d = os.read(master, 65536)
            except OSError: break
            if not d: break
            out += d
        if o['plain']: out = out.replace(b'\\r\\n', b'\\n')
        sys.stdout.buffer.write(out)
        sys.exit(p.wait())
        """
}
