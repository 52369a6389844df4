// Dataset items of place actors, whatever their publisher named the fields,
// as one Place shape: {name, rating, address, link, …}.
import { malformed } from './http.js';

export interface Place {
  position: number;
  name: string;
  rating: number | null;
  reviews_count: number | null;
  address: string | null;
  link: string | null;
  website: string | null;
  phone: string | null;
  category: string | null;
  price: string | null;
  location: { lat: number; lng: number } | null;
}

type Item = Record<string, unknown>;

const first = (item: Item, names: string[]): unknown => names.map((n) => item[n]).find((v) => v !== undefined && v !== null && v !== '');
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const number = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number.parseFloat(v.replace(',', '.')) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

function rating(item: Item): number | null {
  const v = first(item, ['totalScore', 'rating', 'averageRating', 'avgRating', 'ratingValue', 'aggregateRating']);
  return v && typeof v === 'object' ? number((v as Item).ratingValue) : number(v);
}

function address(item: Item): string | null {
  const v = first(item, ['address', 'fullAddress', 'formattedAddress', 'street']);
  if (v && typeof v === 'object') {
    const a = v as Item;
    return [a.street ?? a.streetAddress ?? a.addressLine1, a.postalCode ?? a.zip, a.city ?? a.locality, a.country].map(text).filter(Boolean).join(', ') || null;
  }
  return text(v);
}

function category(item: Item): string | null {
  const v = first(item, ['categoryName', 'category', 'cuisine', 'categories', 'cuisines']);
  const one = Array.isArray(v) ? v[0] : v;
  return one && typeof one === 'object' ? text((one as Item).title ?? (one as Item).name) : text(one);
}

function location(item: Item): { lat: number; lng: number } | null {
  const box = (first(item, ['location', 'coordinates', 'geo']) ?? item) as Item;
  const lat = number(box.lat ?? box.latitude);
  const lng = number(box.lng ?? box.lon ?? box.longitude);
  return lat === null || lng === null ? null : { lat, lng };
}

export function parsePlaces(body: unknown, max: number): Place[] {
  if (!Array.isArray(body)) throw malformed('apify', 'dataset items are not a JSON list');
  return (body as unknown[])
    .filter((i): i is Item => Boolean(i) && typeof i === 'object' && !Array.isArray(i))
    .map((item) => ({ item, name: text(first(item, ['title', 'name', 'businessName', 'restaurantName'])) }))
    .filter((x): x is { item: Item; name: string } => x.name !== null)
    .slice(0, max)
    .map(({ item, name }, i) => ({
      position: i + 1,
      name,
      rating: rating(item),
      reviews_count: number(first(item, ['reviewsCount', 'reviewCount', 'review_count', 'numberOfReviews'])),
      address: address(item),
      link: text(first(item, ['url', 'link', 'placeUrl', 'businessUrl'])),
      website: text(item.website),
      phone: text(first(item, ['phone', 'phoneNumber', 'phoneUnformatted'])),
      category: category(item),
      price: text(first(item, ['price', 'priceRange', 'priceLevel'])),
      location: location(item),
    }));
}
