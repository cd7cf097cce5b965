import KgFormal.Explore
import KgFormal.Durability
