package render

import "testing"

func BenchmarkEncodeLedger(b *testing.B) {
	l := hostileLedger()
	for b.Loop() {
		if _, err := EncodeLedger(l, testKey); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeLedger(b *testing.B) {
	body := Status(hostileLedger(), mustEncode(b, hostileLedger(), testKey))
	for b.Loop() {
		if _, err := DecodeLedger(body, testKey); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStatus(b *testing.B) {
	l := hostileLedger()
	for b.Loop() {
		Status(l, goldenBlock)
	}
}
