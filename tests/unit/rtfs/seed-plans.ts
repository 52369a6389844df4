// The reference plans, copied verbatim: these must keep parsing and running.
export const GOOGLE_MAPS_PLAN = String.raw`(do
  ;; Governance: user confirms browsing Google Maps
  (call :ccos.user.ask {:question "Open Google Maps to search restaurants in Paris?"})
  (call :web.open {:url "https://www.google.com/maps"})
  (call :web.consent.handle {:policy "auto_or_prompt"})
  (call :web.wait {:selector "input[aria-label='Search Google Maps']"})
  (call :web.fill {:selector "input[aria-label='Search Google Maps']" :text "restaurants in Paris"})
  (call :web.keypress {:keys ["Enter"]})
  (call :web.wait {:selector ".hfpxzc"})  ;; result item
  (call :web.scroll {:by 2000})
  (let [items (call :web.extract
                    {:selector ".hfpxzc"
                     :schema {:name ".qBF1Pd"
                              :rating ".MW4etd"
                              :address ".hP61id"
                              :link "a[href]"}
                     :limit 20})]
    (return items)))
`;

export const THEFORK_PLAN = String.raw`(do
  (call :ccos.user.ask {:question "Use TheFork to search restaurants in Paris?"})
  (call :web.open {:url "https://www.thefork.com"})
  (call :web.consent.handle {:policy "profile:thefork"})
  (call :web.wait {:selector "#search-input"})
  (call :web.fill {:selector "#search-input" :text "Paris"})
  (call :web.click {:selector "button[type='submit']"})
  (call :web.wait {:selector ".restaurant-card"})
  (let [items (call :web.extract
                    {:selector ".restaurant-card"
                     :schema {:name ".restaurant-name"
                              :rating ".rating-value"
                              :address ".address"
                              :link "a[href]"}
                     :limit 20})]
    (return items)))
`;
