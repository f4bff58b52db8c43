import AlfredCore
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// The Prometheus side of the service: one registry, histogram buckets per metric, and the HTTP
/// endpoint serving `/metrics`, `/healthz` and `/readyz`.
public enum Telemetry {
    /// A metrics factory whose histograms resolve what the SLOs ask about.
    public static func makeFactory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        let ms = { (value: Int) in Duration.milliseconds(value) }
        factory.defaultDurationHistogramBuckets = [
            ms(1), ms(5), ms(10), ms(25), ms(50), ms(100), ms(250), ms(500), ms(1000), ms(2500), ms(5000),
            ms(10_000), ms(30_000), ms(60_000),
        ]
        factory.durationHistogramBuckets[MetricName.jobStartLateness] = [
            ms(1), ms(5), ms(10), ms(20), ms(50), ms(100), ms(250), ms(500), ms(1000), ms(5000), ms(30_000),
            ms(60_000), ms(300_000),
        ]
        // The reminder SLI: resolves 1, 5, 30, 60 and 300 s; "within 60 s" is exactly a bucket bound.
        factory.durationHistogramBuckets[MetricName.reminderDeliverySeconds] = [1, 5, 15, 30, 45, 60, 90, 120, 300].map { ms($0 * 1000) }
        factory.durationHistogramBuckets[MetricName.apnsRequestDuration] = [
            ms(5), ms(10), ms(25), ms(50), ms(100), ms(250), ms(500), ms(1000), ms(2500), ms(5000), ms(10_000),
        ]
        factory.durationHistogramBuckets[MetricName.deleteAllDuration] = [1, 5, 10, 30, 60, 300, 3600, 6 * 3600, 24 * 3600].map { ms($0 * 1000) }
        // The API's latency objective reads the 250 ms bound; 10 ms is the benchmark's aim for reads.
        factory.durationHistogramBuckets[MetricName.apiRequestDuration] = [
            .microseconds(1000), .microseconds(2500), ms(5), ms(10), ms(25), ms(50), ms(100), ms(250), ms(500), ms(1000),
            ms(2500), ms(5000),
        ]
        return factory
    }

    /// The registry's exposition with a `# HELP` line before each family's `# TYPE` line (the
    /// swift-metrics route into swift-prometheus registers families without help text).
    public static func exposition(_ registry: PrometheusCollectorRegistry) -> [UInt8] {
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        var out = ""
        out.reserveCapacity(text.utf8.count + 4096)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first {
                let help = MetricName.help[String(name)] ?? "Alfred metric \(name)."
                out += "# HELP \(name) \(help)\n"
            }
            out += line
            out += "\n"
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return Array(out.utf8)
    }
}

/// Serves `/metrics` (Prometheus text), `/healthz` (the process is up) and `/readyz` (its
/// dependencies answer). Runs last in a ServiceGroup so it stops first.
public struct MetricsEndpoint: Service {
    let application: Application<RouterResponder<BasicRequestContext>>

    /// - Parameters:
    ///   - ready: returns nil when ready, or a short reason (no personal data) when not.
    ///   - onListening: called with the bound port (useful with port 0).
    public init(host: String, port: Int, registry: PrometheusCollectorRegistry, logger: Logger,
                ready: @escaping @Sendable () async -> String?,
                onListening: @escaping @Sendable (Int) async -> Void = { _ in }) {
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(bytes: Telemetry.exposition(registry))))
        }
        router.get("/healthz") { _, _ in "ok\n" }
        router.get("/readyz") { _, _ -> Response in
            if let reason = await ready() {
                return Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "not ready: \(reason)\n")))
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
        }
        application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    public func run() async throws {
        try await application.run()
    }
}
