window.BENCHMARK_DATA = {
 "lastUpdate": 1794614400000.0,
 "repoUrl": "",
 "entries": {
  "tare": [
   {
    "commit": {
     "id": "a000000f00d",
     "message": "",
     "timestamp": "2026-11-01T00:00:00Z",
     "url": ""
    },
    "date": 1793491200000.0,
    "tool": "customSmallerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (latency)",
      "unit": "ns",
      "value": 168819219.75,
      "range": "\u00b1 2886193.9728108943",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 1.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 67108864.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 67112944.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 16385.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (latency)",
      "unit": "ns",
      "value": 3294397.25,
      "range": "\u00b1 239627.5807753927",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (latency)",
      "unit": "ns",
      "value": 10248.008333333333,
      "range": "\u00b1 141.8490691145189",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 24592.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (latency)",
      "unit": "ns",
      "value": 102910.77666666667,
      "range": "\u00b1 9103.154234044232",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.15,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 45875.2,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 786448.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 24810.057142857142,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 8.508333333333333,
      "extra": "aggregates only: no samples"
     }
    ]
   },
   {
    "commit": {
     "id": "a010000f00d",
     "message": "",
     "timestamp": "2026-11-02T00:00:00Z",
     "url": ""
    },
    "date": 1793577600000.0,
    "tool": "customSmallerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (latency)",
      "unit": "ns",
      "value": 169959531.421105,
      "range": "\u00b1 2905689.150416523",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 1.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 67108864.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 67112944.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 16385.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (latency)",
      "unit": "ns",
      "value": 3316649.69044484,
      "range": "\u00b1 241246.17685397598",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (latency)",
      "unit": "ns",
      "value": 10317.229856364815,
      "range": "\u00b1 142.80720734834176",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 24592.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (latency)",
      "unit": "ns",
      "value": 103605.90107186924,
      "range": "\u00b1 9164.642689163986",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.15,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 45875.2,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 786448.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 24810.057142857142,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 8.508333333333333,
      "extra": "aggregates only: no samples"
     }
    ]
   },
   {
    "commit": {
     "id": "a020000f00d",
     "message": "",
     "timestamp": "2026-11-03T00:00:00Z",
     "url": ""
    },
    "date": 1793664000000.0,
    "tool": "customSmallerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (latency)",
      "unit": "ns",
      "value": 167137502.4299377,
      "range": "\u00b1 2857442.729911402",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 1.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 67108864.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 67112944.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_fresh_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 16385.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (latency)",
      "unit": "ns",
      "value": 3261579.630521039,
      "range": "\u00b1 237240.49562269868",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (peak-live-bytes)",
      "unit": "B",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (latency)",
      "unit": "ns",
      "value": 10145.92130120612,
      "range": "\u00b1 140.4360188900373",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 24592.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 0.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (latency)",
      "unit": "ns",
      "value": 101885.61593083525,
      "range": "\u00b1 9012.471833276948",
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (allocs-per-iter)",
      "unit": "allocs/iter",
      "value": 0.15,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (bytes-per-iter)",
      "unit": "B/iter",
      "value": 45875.2,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (peak-live-bytes)",
      "unit": "B",
      "value": 786448.0,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (retained-bytes-per-iter)",
      "unit": "B/iter",
      "value": 24810.057142857142,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (page-faults-per-iter)",
      "unit": "faults/iter",
      "value": 8.508333333333333,
      "extra": "aggregates only: no samples"
     }
    ]
   }
  ],
  "tare (bigger is better)": [
   {
    "commit": {
     "id": "a000000f00d",
     "message": "",
     "timestamp": "2026-11-01T00:00:00Z",
     "url": ""
    },
    "date": 1793491200000.0,
    "tool": "customBiggerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 397519098.2364435,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 20370604668.274296,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (throughput)",
      "unit": "items/s",
      "value": 399687418.9375009,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (throughput)",
      "unit": "items/s",
      "value": 39801468.15203966,
      "extra": "aggregates only: no samples"
     }
    ]
   },
   {
    "commit": {
     "id": "a010000f00d",
     "message": "",
     "timestamp": "2026-11-02T00:00:00Z",
     "url": ""
    },
    "date": 1793577600000.0,
    "tool": "customBiggerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 397519098.2364435,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 20370604668.274296,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (throughput)",
      "unit": "items/s",
      "value": 399687418.9375009,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (throughput)",
      "unit": "items/s",
      "value": 39801468.15203966,
      "extra": "aggregates only: no samples"
     }
    ]
   },
   {
    "commit": {
     "id": "a020000f00d",
     "message": "",
     "timestamp": "2026-11-03T00:00:00Z",
     "url": ""
    },
    "date": 1793664000000.0,
    "tool": "customBiggerIsBetter",
    "benches": [
     {
      "name": "copy_into_fresh_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 397519098.2364435,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "copy_into_resident_buffer/64 (throughput-bytes)",
      "unit": "B/s",
      "value": 20370604668.274296,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_inside/4096 (throughput)",
      "unit": "items/s",
      "value": 399687418.9375009,
      "extra": "aggregates only: no samples"
     },
     {
      "name": "output_cleared_outside/4096 (throughput)",
      "unit": "items/s",
      "value": 39801468.15203966,
      "extra": "aggregates only: no samples"
     }
    ]
   }
  ]
 }
}
