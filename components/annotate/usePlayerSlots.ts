"use client";

import { useState } from "react";
import type { TAnnotatorItem } from "@/lib/annotate/view";
import { preloadable } from "./annotateHelpers";

export type TPlayerSlots = { active: 0 | 1; ids: [string | null, string | null] };

/**
 * Two player slots: the current item's, and the next item's behind it. Moving on
 * to the preloaded item swaps them (the same element comes to the front); any other move reuses
 * the current slot (a new item on the same video seeks in the same player, as before).
 * `wantNext`: the next item loaded behind the current one, or null.
 */
export function usePlayerSlots(data: TAnnotatorItem | undefined, nextData: TAnnotatorItem | undefined) {
  const [slots, setSlots] = useState<TPlayerSlots>({
    active: 0,
    ids: [null, null],
  });
  const wantNext = data && nextData && nextData.id !== data.id && preloadable(nextData.video) ? nextData.id : null;
  let slotsNow = slots;
  if (data && slotsNow.ids[slotsNow.active] !== data.id) {
    const k = slotsNow.ids.indexOf(data.id);
    const active = k >= 0 ? (k as 0 | 1) : slotsNow.active;
    slotsNow = { active, ids: active === 0 ? [data.id, slotsNow.ids[1]] : [slotsNow.ids[0], data.id] };
  }
  if (data && slotsNow.ids[1 - slotsNow.active] !== wantNext)
    slotsNow = { ...slotsNow, ids: slotsNow.active === 0 ? [slotsNow.ids[0], wantNext] : [wantNext, slotsNow.ids[1]] };
  if (slotsNow !== slots) setSlots(slotsNow);
  return { slots: slotsNow, wantNext };
}
