// The demo sites' listings: generated, deterministic (same query, same
// restaurants), so tests and the demo can check exact names.
export interface Place { id: string; name: string; rating: string; address: string; cuisine: string }

const FIRST = ['Le Petit', 'Chez', 'La Table de', 'Bistro', 'Café', 'Maison', "L'Atelier de", 'Le Comptoir de'];
const SECOND = ['Marcel', 'Juliette', 'Gustave', 'Louise', 'Victor', 'Camille', 'Rosalie', 'Antoine', 'Odette', 'Émile'];
const STREETS = ['rue de Rivoli', 'boulevard Voltaire', 'rue Oberkampf', 'avenue Jean Jaurès', 'rue du Bac', 'quai de Jemmapes'];
const CUISINES = ['French', 'Italian', 'Japanese', 'Lebanese', 'Vegetarian', 'Seafood'];

/** The first `count` places for a search; the city is whatever follows "in", or the query itself. */
export function placesFor(query: string, count: number): Place[] {
  const city = cityOf(query);
  return Array.from({ length: count }, (_, i) => {
    const n = hash(`${city.toLowerCase()}#${i}`);
    return {
      id: `${slug(city)}-${i + 1}`,
      name: `${FIRST[n % FIRST.length]} ${SECOND[(n >>> 3) % SECOND.length]} ${i + 1}`,
      rating: (3.5 + ((n >>> 7) % 15) / 10).toFixed(1),
      address: `${1 + ((n >>> 11) % 120)} ${STREETS[(n >>> 17) % STREETS.length]}, ${city}`,
      cuisine: CUISINES[(n >>> 21) % CUISINES.length],
    };
  });
}

/** FNV-1a: small, well spread, unsigned. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function cityOf(query: string): string {
  const m = /\bin\s+(.+)$/i.exec(query.trim());
  const city = (m ? m[1] : query).trim() || 'Paris';
  return city.charAt(0).toUpperCase() + city.slice(1);
}

function slug(s: string): string {
  return s.normalize('NFD').replace(/[^\w]+/g, '-').toLowerCase();
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
