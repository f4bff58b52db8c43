// Everything that runs a cluster (Postgres, processes, servers) also needs the pure kit.
@_exported import AlfredTestKit
