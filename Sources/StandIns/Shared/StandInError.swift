/// Why a stand-in could not do what was asked, with what to do about it. Safe to log: it never
/// carries tokens or secrets.
public struct StandInError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable {
        fileprivate let name: String
        /// `run()` has not bound its socket yet, failed to bind, or has stopped.
        public static let notRunning = Code(name: "not_running")
        /// A scenario file could not be read or decoded.
        public static let invalidScenario = Code(name: "invalid_scenario")
        /// A fault rule cannot be used (bad regex, unknown fault name, nothing to do).
        public static let invalidFault = Code(name: "invalid_fault")
        /// A user named by email or subject is not in the current scenario.
        public static let unknownUser = Code(name: "unknown_user")
    }

    public let code: Code
    /// What happened and what to do next, e.g. "scenario /tmp/x.json: key 'clients' ...; fix the file".
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "stand-in \(code.name): \(message)" }
}
