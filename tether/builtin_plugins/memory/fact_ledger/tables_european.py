"""Cue tables for Spanish, French, German, Portuguese, Italian and Dutch users: the same
kinds as the English table.

A user who writes "Nada de Trainer de Hugging Face", "Prochaine étape : porter fir1" or "wir
nehmen ab jetzt Redis" states a rule, a next step and a change as an English or Chinese user
does; these tables let the ledger file them so (a rule under Constraints, a next step under
Next Steps, never ticked done). Their change cues are the unambiguous ones ("passe à", "ab
jetzt", "plus besoin", "olvídate de", "vergiss den"); "instead" and a bare "forget" are left
out: "au lieu de discuter" or "oublie pas" change nothing, and the readers that tell such uses
apart know English and Chinese only.

Goal cues ask for the work itself ("quiero que", "das ziel ist"), as the English ones do: a
bare "ich brauche" or "je veux" later in a session states no new goal. Phrases are lower
case; ``...`` stands for a gap of a few words.
"""

from __future__ import annotations

SPANISH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nunca", "siempre", "no uses", "no usar", "no quiero", "nada de", "debe",
        "deben", "tiene que", "tienen que", "hay que", "solo", "sólo", "solamente", "prefiero",
        "mejor", "evita", "evitar", "asegúrate", "como máximo", "como mínimo", "al menos",
        "mantén", "mantener", "fija", "usamos", "a partir de ahora", "ya no", "no toques",
        "prohibido", "obligatorio", "límite",
    ),
    "decision": (
        "vamos con", "usemos", "decidimos", "nos quedamos con", "elegimos", "empecemos con",
        "mejor usar",
    ),
    "next_step": (
        "siguiente paso", "próximo paso", "lo siguiente", "después", "luego", "a continuación",
        "más tarde", "cuando termines",
    ),
    "change": (
        "cambia a", "cambiar a", "cámbialo a", "pasa a", "pasar a", "a partir de ahora",
        "de ahora en adelante", "cambiemos a", "cambiamos a", "pasamos a", "nos pasamos a",
    ),
    "revoke": (
        "ya no hace falta", "no hace falta", "ya no necesitamos", "ya no usamos",
        "ya no lo usamos", "olvídate de", "olvidate de", "olvídate del", "olvidate del",
    ),
    "accept": ("sí", "vale", "de acuerdo", "perfecto", "genial", "bien"),
    "filler": ("sigue", "continúa", "adelante", "dale"),
    "goal": ("el objetivo es", "la tarea es", "quiero que", "necesito que", "objetivo"),
    "provisional": ("por ahora", "de momento", "por el momento", "para empezar"),
}  # fmt: skip

FRENCH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "jamais", "toujours", "ne ... pas", "n'utilise pas", "pas de", "sans", "il faut",
        "doit", "doivent", "uniquement", "seulement", "je préfère", "de préférence", "évite",
        "éviter", "assure-toi", "au maximum", "au minimum", "au moins", "garde", "garder",
        "on utilise", "désormais", "à partir de maintenant", "plus de", "ne touche pas",
        "interdit", "obligatoire", "limite",
    ),
    "decision": (
        "on part sur", "on prend", "utilisons", "on a décidé", "on garde", "on choisit",
        "allons avec",
    ),
    "next_step": (
        "prochaine étape", "étape suivante", "ensuite", "après ça", "plus tard", "puis",
    ),
    "change": (
        "passe à", "passer à", "on passe à", "change pour", "remplace par", "désormais",
        "à partir de maintenant", "dorénavant", "on bascule sur", "bascule sur",
    ),
    "revoke": (
        "plus besoin", "n'en a plus besoin", "on n'a plus besoin", "laisse tomber",
        "on laisse tomber", "on abandonne", "on n'utilise plus",
    ),
    "accept": ("oui", "d'accord", "parfait", "ça marche", "très bien", "ok"),
    "filler": ("continue", "vas-y", "poursuis"),
    "goal": ("le but est", "l'objectif est", "je veux que", "il s'agit de", "objectif"),
    "provisional": ("pour l'instant", "pour le moment", "pour commencer", "en attendant"),
}  # fmt: skip

GERMAN: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nie", "niemals", "immer", "auf keinen fall", "ohne", "muss", "müssen", "soll",
        "sollen", "nur", "ich bevorzuge", "lieber", "vermeide", "achte darauf", "höchstens",
        "mindestens", "behalte", "wir nutzen", "wir verwenden", "ab jetzt", "nicht mehr",
        "verboten", "pflicht", "limit",
    ),
    "decision": (
        "wir nehmen", "nehmen wir", "wir haben entschieden", "entschieden", "wir bleiben bei",
    ),
    "next_step": (
        "nächster schritt", "als nächstes", "danach", "anschließend", "später",
    ),
    "change": (
        "wechsle zu", "wechseln zu", "wechsle auf", "wechseln auf", "umstellen auf",
        "umsteigen auf", "ab jetzt", "ab sofort", "mach ... draus", "mach ... daraus",
    ),
    "revoke": (
        "brauchen wir nicht mehr", "brauchen wir doch nicht mehr",
        "brauchen wir jetzt nicht mehr", "brauchen wir jetzt doch nicht mehr",
        "brauchen wir eigentlich nicht mehr", "brauchen sie nicht mehr",
        "brauchen sie doch nicht mehr", "brauche ich nicht mehr",
        "braucht keiner mehr", "nicht mehr nötig",
        "fliegt ... raus", "kann ... weg", "lass ... weg", "lassen ... weg",
        "vergiss den", "vergiss die", "vergiss das",
    ),
    "accept": ("ja", "passt", "einverstanden", "gut", "perfekt", "alles klar"),
    "filler": ("weiter", "mach weiter", "fortfahren"),
    "goal": ("das ziel ist", "die aufgabe ist", "ich möchte, dass", "ich hätte gern", "ziel"),
    "provisional": ("vorerst", "erstmal", "fürs erste", "vorläufig", "zunächst"),
}  # fmt: skip

PORTUGUESE: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nunca", "sempre", "não use", "não usar", "não quero", "nada de", "deve", "devem",
        "tem que", "têm que", "somente", "apenas", "prefiro", "evite", "evitar",
        "no máximo", "no mínimo", "pelo menos", "mantenha", "manter", "a partir de agora",
        "não mexa", "proibido", "obrigatório", "limite",
    ),
    "decision": ("vamos de", "vamos com", "vamos usar", "decidimos", "ficamos com", "escolhemos"),
    "next_step": (
        "próximo passo", "depois disso", "mais tarde", "quando terminar", "aí depois",
    ),
    "change": (
        "muda para", "mude para", "mudar para", "muda pra", "muda pro", "mudei pra", "mudei pro",
        "troca para", "troque para", "troca pra", "troca pro", "troquei pra", "troquei pro",
        "a partir de agora", "de agora em diante", "passa a ser", "passamos a",
    ),
    "revoke": (
        "não precisa mais", "não precisamos mais", "não usamos mais", "não vamos mais",
        "esquece o", "esquece a", "esqueça o", "esqueça a", "pode tirar",
    ),
    "accept": ("sim", "beleza", "fechado", "perfeito", "ótimo", "combinado"),
    "filler": ("pode seguir", "pode continuar"),
    "goal": ("o objetivo é", "a ideia é", "quero que", "preciso que", "objetivo"),
    "provisional": ("por enquanto", "por ora", "por agora", "pra começar"),
}  # fmt: skip

ITALIAN: dict[str, tuple[str, ...]] = {
    "constraint": (
        "mai", "sempre", "non usare", "non voglio", "niente", "deve", "devono", "bisogna",
        "soltanto", "preferisco", "evita", "evitare", "assicurati", "al massimo", "al minimo",
        "almeno", "mantieni", "d'ora in poi", "non toccare", "vietato", "obbligatorio",
    ),
    "decision": ("andiamo con", "usiamo", "abbiamo deciso", "decidiamo", "scegliamo"),
    "next_step": (
        "prossimo passo", "passo successivo", "dopodiché", "in seguito", "più tardi",
        "quando hai finito",
    ),
    "change": (
        "passa a", "passiamo a", "cambia in", "cambiamo in", "sostituisci con", "d'ora in poi",
        "da ora in poi", "da adesso in poi", "spostiamo su", "spostalo su",
    ),
    "revoke": (
        "non serve più", "non ci serve più", "non usiamo più", "lascia perdere",
        "lasciamo perdere", "toglilo", "toglila", "scordati",
    ),
    "accept": ("sì", "va bene", "perfetto", "ottimo", "d'accordo"),
    "filler": ("vai avanti", "procedi"),
    "goal": ("l'obiettivo è", "lo scopo è", "voglio che", "vorrei che", "obiettivo"),
    "provisional": ("per ora", "per adesso", "per il momento", "per iniziare"),
}  # fmt: skip

DUTCH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nooit", "altijd", "gebruik geen", "niet gebruiken", "geen", "moet", "moeten", "alleen",
        "liever", "vermijd", "zorg dat", "maximaal", "minimaal", "minstens", "hooguit",
        "vanaf nu", "voortaan", "verboden", "verplicht", "limiet",
    ),
    "decision": ("we gaan voor", "we nemen", "we kiezen", "besloten", "we gebruiken"),
    "next_step": ("volgende stap", "als dat klaar is"),
    "change": (
        "overstappen op", "stap over op", "stappen over op", "we stappen over", "wissel naar",
        "verander naar", "vanaf nu", "voortaan",
    ),
    "revoke": (
        "niet meer nodig", "hebben we niet meer nodig", "gebruiken we niet meer",
        "laat ... weg", "mag weg", "kan weg", "vergeet de", "vergeet het", "schrap",
    ),
    "accept": ("ja", "prima", "akkoord", "oké", "goed zo"),
    "filler": ("doorgaan",),
    "goal": ("het doel is", "ik wil dat", "de bedoeling is", "doel"),
    "provisional": ("voorlopig", "voor nu", "voorlopig even", "om te beginnen"),
}  # fmt: skip

__all__ = ["DUTCH", "FRENCH", "GERMAN", "ITALIAN", "PORTUGUESE", "SPANISH"]
