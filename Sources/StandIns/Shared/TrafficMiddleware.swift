import Foundation
import Hummingbird
import Logging

/// Sits in front of every route a stand-in emulates: applies injected faults, then records the
/// request and the status it got. Control-plane paths pass straight through, unrecorded, so that
/// reading the recordings does not change them.
struct TrafficMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    static let controlPrefix = "/_fake/"
    /// Large enough for any OAuth form or Gmail/Calendar JSON the stand-ins accept.
    static let maxBodyBytes = 1 << 20

    let faults: FaultPlan
    let recorder: RequestRecorder
    let clock: StandInClock
    /// What a fault's delay sleeps on.
    let latencyClock: any Clock<Duration>
    let logger: Logger

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix(Self.controlPrefix) { return try await next(request, context) }

        var request = request
        // Collected once here; handlers read it again from the request (collectBody stores it back).
        let bodyBuffer = try await request.collectBody(upTo: Self.maxBodyBytes)
        let bodyText = String(buffer: bodyBuffer)
        var headers: [String: [String]] = [:]
        for field in request.headers { headers[field.name.canonicalName, default: []].append(field.value) }
        let facts = RequestFacts(method: request.method.rawValue, path: request.uri.path, headers: headers, body: bodyText)
        let receivedAt = clock.now()

        let fault = faults.take(for: facts)
        if let fault, fault.delayMilliseconds > 0 {
            // Real time by default: the client under test is what measures this latency.
            try await latencyClock.sleep(for: .milliseconds(fault.delayMilliseconds))
        }

        let response: Response
        if let canned = fault?.response {
            response = Self.response(canned)
        } else {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        }

        recorder.append(Self.record(request, facts: facts, status: response.status.code, fault: fault?.name,
                                    receivedAt: receivedAt))
        // Method, path and status only: queries and bodies may hold tokens; the path without emails.
        logger.debug("stand-in request", metadata: [
            "alfred.standin.method": "\(facts.method)",
            "alfred.standin.path": "\(Self.loggablePath(facts.path))",
            "alfred.standin.status": "\(response.status.code)",
            "alfred.standin.fault": "\(fault?.name ?? "none")",
        ])
        return response
    }

    /// The path with every segment that holds an email (a calendar id, a Gmail `userId`; raw or
    /// percent-encoded) replaced by `<redacted>`, so logs carry no user's address.
    static func loggablePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            // `%40` checked as such: a segment with a broken escape elsewhere would not decode at all.
            segment.contains("@") || segment.lowercased().contains("%40") ? "<redacted>" : String(segment)
        }.joined(separator: "/")
    }

    static func response(_ canned: CannedResponse) -> Response {
        var headers = HTTPFields()
        for (name, value) in canned.headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        return Response(status: .init(code: canned.status), headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: canned.body)))
    }

    private static func record(_ request: Request, facts: RequestFacts, status: Int, fault: String?,
                               receivedAt: Date) -> RecordedRequest {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let isForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        let headers = request.headers.map { Redaction.header(name: $0.name.canonicalName, value: $0.value) }
        return RecordedRequest(
            method: facts.method,
            path: facts.path,
            query: Redaction.fields(FormFields(encoded: request.uri.query ?? "")),
            headers: headers,
            form: isForm ? Redaction.fields(FormFields(encoded: facts.body)) : nil,
            body: isForm || facts.body.isEmpty ? nil : Redaction.body(facts.body),
            status: status,
            fault: fault,
            receivedAt: receivedAt)
    }
}
