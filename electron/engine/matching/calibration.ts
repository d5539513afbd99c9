// Written by `npm run calibrate` (bench/quality/calibrate.ts); run it again rather than edit by hand.
import type { Calibration } from './calibrate';

export const CALIBRATION: Calibration = {
  why:
    'Isotonic regression of being the row\'s person on the raw share, per kind of row, on the labeled ' +
    'evaluation set: a confidence is the share of such candidates that were the person there. Where the ' +
    'set had no candidate, the raw share, held between the neighbouring probabilities: no claim beyond ' +
    'the data.',
  fittedOn: { seed: 43, people: 50000, rowsPerCategory: 600 },
  maps: {
    guarded: {
      candidates: 6422,
      blocks: [
        [0, 0.0224, 0.0013], [0.0229, 0.0684, 0.0725], [0.0716, 0.0965, 0.1914], [0.0968, 0.1165, 0.2564],
        [0.1205, 0.2925, 0.3211], [0.3007, 0.9999, 0.4874],
      ],
      allRightFrom: null,
    },
    clear: {
      candidates: 3644,
      blocks: [
        [0, 0.072, 0.012], [0.8824, 1, 0.9997],
      ],
      allRightFrom: 0.8824,
    },
    twins: {
      candidates: 1397,
      blocks: [
        [0, 0.255, 0.0336], [0.3212, 0.3324, 0.3333], [0.333, 0.4767, 0.4688], [0.4824, 0.6534, 0.5096],
      ],
      allRightFrom: null,
    },
    not_at_company: {
      candidates: 2052,
      blocks: [
        [0.0001, 0.0219, 0.0021], [0.0229, 0.0684, 0.0906], [0.0716, 0.0965, 0.1932], [0.0968, 0.1165, 0.2586],
        [0.1205, 0.1745, 0.3347], [0.1763, 0.1768, 0.5424], [0.3007, 0.9373, 0.5677],
      ],
      allRightFrom: null,
    },
    near_name: {
      candidates: 662,
      blocks: [
        [0.0004, 0.4881, 0.2], [0.5502, 0.9761, 0.9949],
      ],
      allRightFrom: null,
    },
    no_company: {
      candidates: 1098,
      blocks: [
        [0.0014, 0.2213, 0.0419], [0.2217, 0.3509, 0.3182], [0.3654, 0.4546, 0.5], [0.5519, 0.9091, 0.9978],
      ],
      allRightFrom: 0.5519,
    },
    hit_other_name: {
      candidates: 600,
      blocks: [
        [0.9863, 0.9997, 0.0017],
      ],
      allRightFrom: null,
    },
    hit_family_name: {
      candidates: 600,
      blocks: [
        [0.9934, 0.9999, 0.0017],
      ],
      allRightFrom: null,
    },
  },
};
