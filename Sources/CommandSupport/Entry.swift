import ArgumentParser
@preconcurrency import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The entry point every Alfred executable shares: line-buffered stdout, parse errors with usage,
/// run-time failures as one actionable line without usage text.
public enum CommandEntry {
    public static func main(_ root: any ParsableCommand.Type) async {
        // Output for people and scripts is line-buffered even into a pipe, so nothing is lost on Ctrl-C.
        setvbuf(stdout, nil, _IOLBF, 0)
        let command: any ParsableCommand
        do {
            command = try root.parseAsRoot(nil)
        } catch {
            root.exit(withError: error)  // a parse error: the message and the relevant usage
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch let code as ExitCode {
            root.exit(withError: code)
        } catch where String(reflecting: type(of: error)) == "ArgumentParser.CommandError" {
            root.exit(withError: error)  // `<command> --help`: the parser prints the help text
        } catch {
            // A failure while running: the message says what to do; usage text would only hide it.
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(1)
        }
    }
}
