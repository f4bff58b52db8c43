import ArgumentParser
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import Telemetry

/// `--metrics-port` for the broker and the key service: bootstraps Prometheus and serves /metrics
/// (plus /healthz and /readyz) on loopback by default, so their counters (refresh results, key
/// decisions by reason) reach the scrape config in ops/.
public struct MetricsOption: ParsableArguments {
    public init() {}

    @Option(help: "Port for /metrics, /healthz and /readyz (omit to serve none).") public var metricsPort: Int?
    @Option(help: "Address the metrics endpoint binds.") public var metricsHost = "127.0.0.1"

    /// The endpoint service to append last to a ServiceGroup, or nil when no port was given.
    public func endpoint(logger: Logger) -> MetricsEndpoint? {
        guard let metricsPort else { return nil }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(Telemetry.makeFactory(registry: registry))
        return MetricsEndpoint(host: metricsHost, port: metricsPort, registry: registry, logger: logger, ready: { nil })
    }
}
