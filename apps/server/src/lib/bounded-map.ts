/**
 * Sets `key` as the newest entry of `map` and drops the oldest entries beyond `max`: a process's memory of
 * what it has read (access keys, sessions) stays bounded whatever the traffic.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}
