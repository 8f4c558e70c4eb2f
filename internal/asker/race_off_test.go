//go:build !race

package asker_test

// raceDetector says the tests run under -race, whose own allocations would be counted in
// a heap measured.
const raceDetector = false
