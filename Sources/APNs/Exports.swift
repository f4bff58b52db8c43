// Callers of the APNs client use the provider token types through this module, as before the
// split (the broker imports `APNsProviderToken` alone).
@_exported import APNsProviderToken
