// The CNCF distribution registry's cmd/registry, with only the storage drivers and auth the tests
// use (filesystem, inmemory, htpasswd): the cloud drivers (S3, GCS, Azure) and their SDKs would
// triple the cold build for nothing a loopback test needs.
package main

import (
	"github.com/distribution/distribution/v3/registry"
	_ "github.com/distribution/distribution/v3/registry/auth/htpasswd"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/filesystem"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
)

func main() {
	// Execute prints its own error and exits non-zero on failure.
	_ = registry.RootCmd.Execute()
}
