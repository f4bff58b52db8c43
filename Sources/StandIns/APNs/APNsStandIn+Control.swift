import Foundation
import Hummingbird

/// The control plane, on the same TLS server, for processes that cannot call the Swift API (the dev
/// command, benchmarks). JSON in and out, snake_case, times in ms since 1970. These requests are
/// neither recorded nor delayed and never touch `/3/device` behaviour.
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `POST /_fake/devices` | `{"token":"…","environment":"sandbox","topic":"…"}` (last two optional) | 204 |
/// | `POST /_fake/devices/unregister` | `{"token":"…","timestamp_ms":1772441112000}` (time optional: now) | 204 |
/// | `POST /_fake/faults` | `APNsFault` JSON, e.g. `{"status":503,"reason":"ServiceUnavailable","count":2}` | 204 |
/// | `DELETE /_fake/faults` | | 204 |
/// | `GET /_fake/deliveries` | | 200, array of `APNsDelivery` (`payload` base64) |
/// | `DELETE /_fake/deliveries` | | 204 |
/// | `GET /_fake/shown` | | 200, what the devices show: `deliveries` less background pushes, one per device and collapse id |
/// | `GET /_fake/requests` | | 200, array of `APNsRequestRecord` |
/// | `DELETE /_fake/requests` | | 204 |
///
/// Mistakes get 400 (404 for an unknown path) with `{"error":"…"}`.
extension APNsStandIn {
    static let controlPrefix = "/_fake/"

    struct DeviceRegistration: Decodable {
        var token: String
        var environment: Environment?
        var topic: String?
    }

    struct DeviceUnregistration: Decodable {
        var token: String
        var timestampMilliseconds: Double?

        enum CodingKeys: String, CodingKey {
            case token, timestampMilliseconds = "timestamp_ms"
        }
    }

    private struct ControlError: Error {
        var status: HTTPResponse.Status
        var message: String
    }

    func control(_ request: Request) async -> Response {
        do {
            var request = request
            switch (request.method, request.uri.path) {
            case (.post, "/_fake/devices"):
                let body = try await Self.decode(DeviceRegistration.self, from: &request)
                register(deviceToken: body.token, environment: body.environment, topic: body.topic)
            case (.post, "/_fake/devices/unregister"):
                let body = try await Self.decode(DeviceUnregistration.self, from: &request)
                unregister(deviceToken: body.token,
                           at: body.timestampMilliseconds.map(Date.init(millisecondsSince1970:)) ?? clock.now())
            case (.post, "/_fake/faults"):
                let fault = try await Self.decode(APNsFault.self, from: &request)
                if let problem = fault.problem { throw ControlError(status: .badRequest, message: "fault: \(problem)") }
                inject(fault)
            case (.delete, "/_fake/faults"):
                removeAllFaults()
            case (.get, "/_fake/deliveries"):
                return try Self.json(deliveries())
            case (.delete, "/_fake/deliveries"):
                clearDeliveries()
            case (.get, "/_fake/shown"):
                let byDevice = Dictionary(grouping: deliveries(), by: \.deviceToken)
                return try Self.json(byDevice.keys.sorted().flatMap { APNsDelivery.shownOnDevice(byDevice[$0] ?? []) })
            case (.get, "/_fake/requests"):
                return try Self.json(requests())
            case (.delete, "/_fake/requests"):
                clearRequests()
            default:
                throw ControlError(status: .notFound, message: "no control route \(request.method) \(request.uri.path)")
            }
            return Response(status: .noContent)
        } catch let error as ControlError {
            return Self.controlError(error.status, error.message)
        } catch {
            return Self.controlError(.badRequest, "\(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from request: inout Request) async throws -> T {
        let body = try await request.collectBody(upTo: maxBodyBytes)
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch {
            throw ControlError(status: .badRequest, message: "body is not a valid \(T.self): \(error)")
        }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    private static func controlError(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
